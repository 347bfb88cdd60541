import { Alert, Link, List, Stack } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { ShieldCheck } from 'lucide-react';
import { iconSize } from '../../../components/theme-tokens.ts';

/**
 * How this business contacts clients and takes payments, said the same way on the How to pay panel and the
 * Stay safe page: fake "recovery" agents target victims a second time, and these are the rules they break.
 */
export const safetyRules = [
  'We only ask for payment through invoices in this portal, by bank transfer to the account shown here.',
  'We never ask for gift cards or vouchers.',
  'We never ask you to send crypto to a personal wallet.',
  'We never contact you or take payments through WhatsApp, Telegram or other chat apps.',
  'Nobody can “recover” your money for an upfront fee. Anyone who offers it is a scammer, even if they use our name.',
] as const;

/** The short notice with the way to the full page and the "Was this really us?" check. */
export function SafetyNotice() {
  return (
    <Alert.Root status="info" borderRadius="l3" alignItems="flex-start" data-testid="safety-notice">
      <Alert.Indicator>
        <ShieldCheck size={iconSize} aria-hidden />
      </Alert.Indicator>
      <Stack gap="2" flex="1" minWidth="0">
        <Alert.Title>How we take payments</Alert.Title>
        <Alert.Description>
          <List.Root ps="4" gap="1">
            {safetyRules.map((rule) => (
              <List.Item key={rule}>{rule}</List.Item>
            ))}
          </List.Root>
        </Alert.Description>
        <Link asChild color="brand.fg" fontWeight="semibold">
          <RouterLink to="/stay-safe">Got a message about your case? Check it was really us</RouterLink>
        </Link>
      </Stack>
    </Alert.Root>
  );
}
