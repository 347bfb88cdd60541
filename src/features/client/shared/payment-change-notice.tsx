import { Alert } from '@chakra-ui/react';
import { type BusinessSettings, paymentDetailsChangedText, recentPaymentChange } from '../../../../domain/business-settings.ts';
import { formatDate } from '../../../../domain/format.ts';

/**
 * The warning after an approved change of the payment details (docs/decisions/032-payment-details-four-eyes.md):
 * for 14 days, How to pay and Stay safe say when they changed, so a client who paid the old account before, or who
 * got a message naming new details, checks with us first. It follows the replica's row: an approval reaches an open
 * page live. Nothing when the details never changed or changed long ago.
 */
export function PaymentChangeNotice({ settings, mb }: { settings: BusinessSettings | null | undefined; mb?: string }) {
  const changedAt = recentPaymentChange(settings, Date.now());
  if (!changedAt) return null;
  return (
    <Alert.Root status="warning" borderRadius="l3" data-testid="payment-details-changed" role="alert" mb={mb}>
      <Alert.Indicator />
      <Alert.Description fontWeight="semibold">{paymentDetailsChangedText(formatDate(changedAt))}</Alert.Description>
    </Alert.Root>
  );
}
