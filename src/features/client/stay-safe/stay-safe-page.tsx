import { Card, Heading, List, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import type { BusinessSettings } from '../../../../domain/business-settings.ts';
import { useBusinessSettings } from '../../../lib/business-settings.ts';
import { ContactSupportLink } from '../shared/contact-support-link.tsx';
import { PaymentChangeNotice } from '../shared/payment-change-notice.tsx';
import { safetyRules } from '../shared/safety-notice.tsx';
import { ReallyUsCheck } from './really-us-check.tsx';

/**
 * Stay safe: victims are targeted again by fake "recovery" agents. The page says how this business
 * contacts clients and takes payments, lists its official channels, and checks a message the client received.
 * Everything comes from the replica, so it works offline.
 */
export function StaySafePage() {
  const settings = useBusinessSettings();
  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth="3xl">
      <Card.Header>
        <Heading as="h1" textStyle="h1">
          Stay safe
        </Heading>
        <Text color="fg.muted">People who lost money to a scam are often contacted again by someone offering to get it back. Here is how to tell it is really us.</Text>
      </Card.Header>
      <Card.Body pt="2">
        <Stack gap="6">
          <PaymentChangeNotice settings={settings} />
          <Section title="How we contact you and take payments">
            <List.Root ps="5" gap="2">
              {safetyRules.map((rule) => (
                <List.Item key={rule}>{rule}</List.Item>
              ))}
            </List.Root>
          </Section>
          <Section title="Our official channels">{settings === undefined ? null : <Channels settings={settings} />}</Section>
          <Section title="Was this really us?">{settings === undefined ? null : <ReallyUsCheck settings={settings} />}</Section>
          <Text>
            Not sure? Do not pay and do not reply. Write to us through <ContactSupportLink /> in this portal.
          </Text>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

function Channels({ settings }: { settings: BusinessSettings | null }) {
  if (!settings || settings.officialEmails.length + settings.officialDomains.length + settings.officialPhones.length === 0) {
    return (
      <Text data-testid="channels-not-configured">
        Our official addresses are not configured yet. Until they are, trust only messages inside this portal: <ContactSupportLink />.
      </Text>
    );
  }
  const groups: [string, string[]][] = [
    ['Email addresses', settings.officialEmails],
    ['Web addresses (and their subdomains)', settings.officialDomains],
    ['Phone numbers', settings.officialPhones],
  ];
  return (
    <Stack gap="3" data-testid="official-channels">
      {groups
        .filter(([, values]) => values.length > 0)
        .map(([label, values]) => (
          <Stack key={label} gap="1">
            <Text fontWeight="semibold">{label}</Text>
            <List.Root ps="5" gap="1">
              {values.map((v) => (
                <List.Item key={v} fontFamily="mono" overflowWrap="anywhere">
                  {v}
                </List.Item>
              ))}
            </List.Root>
          </Stack>
        ))}
      <Text color="fg.muted">Anything else, even if it uses our name or logo, is not us.</Text>
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="3" as="section">
      <Heading as="h2" fontSize="lg">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}
