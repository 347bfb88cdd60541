import { Alert, Box, Button, DataList, Heading, Stack, Text } from '@chakra-ui/react';
import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { FileDown } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { BusinessSettings } from '../../../../domain/business-settings.ts';
import { formatMoney } from '../../../../domain/format.ts';
import { requestName, requestRef } from '../../../../domain/tools.ts';
import { Popup } from '../../../components/popup.tsx';
import { iconSize } from '../../../components/theme-tokens.ts';
import { useBusinessSettings } from '../../../lib/business-settings.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { ContactSupportLink } from '../shared/contact-support-link.tsx';
import { PaymentChangeNotice } from '../shared/payment-change-notice.tsx';
import { SafetyNotice } from '../shared/safety-notice.tsx';
import { downloadProForma, needsPayment, paymentLines } from './how-to-pay.ts';

/**
 * How to pay an Awaiting Payment request, all from the replica (works offline): the amount left, the business's
 * bank details, the reference to quote, a pro-forma invoice made on the device, and how we never ask to be paid.
 * It follows the live row: once the payment is recorded (or the status moves on) it closes by itself.
 */
export function HowToPayDialog({ request, onClose }: { request: LocalRequest | null; onClose(): void }) {
  const db = useReplica();
  const live = useLiveQuery(async () => (request ? ((await db.requests.get(request.id)) ?? null) : null), [db, request?.id]);
  const current = live ?? request;
  const paid = live !== undefined && live !== null && !needsPayment(live);
  useEffect(() => {
    if (paid) onClose();
  }, [paid, onClose]);
  const ref = current ? requestRef(current) : null;
  return (
    <Popup open={request !== null && !paid} onClose={onClose} title={ref ? `How to pay ${ref}` : 'How to pay'}>
      {current && <HowToPayPanel request={current} />}
    </Popup>
  );
}

function HowToPayPanel({ request }: { request: LocalRequest }) {
  const settings = useBusinessSettings();
  const ref = requestRef(request) ?? '';
  return (
    <Stack gap="5" data-testid="how-to-pay">
      <Text>{requestName(request)} is waiting for your payment.</Text>
      <DataList.Root orientation="horizontal" gap="3" size="md">
        <DataList.Item>
          <DataList.ItemLabel width="40%" flexShrink={0}>
            Amount left to pay
          </DataList.ItemLabel>
          <DataList.ItemValue fontWeight="semibold" fontSize="lg" data-testid="how-to-pay-amount">
            {formatMoney(request.leftToPay)}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel width="40%" flexShrink={0}>
            Reference to quote
          </DataList.ItemLabel>
          <DataList.ItemValue fontFamily="mono" fontWeight="semibold" data-testid="how-to-pay-ref">
            {ref}
          </DataList.ItemValue>
        </DataList.Item>
      </DataList.Root>
      <Box as="section" aria-labelledby="pay-by-transfer">
        <Heading as="h3" id="pay-by-transfer" fontSize="md" mb="3">
          Pay by bank transfer
        </Heading>
        <PaymentChangeNotice settings={settings} mb="3" />
        {settings === undefined ? null : settings === null ? <NotConfigured /> : <PaymentDetails settings={settings} request={request} />}
      </Box>
      <SafetyNotice />
    </Stack>
  );
}

function NotConfigured() {
  return (
    <Alert.Root status="warning" borderRadius="l3" data-testid="payment-not-configured">
      <Alert.Indicator />
      <Alert.Description>
        Payment details are not configured yet. Please do not pay anyone until they appear here: <ContactSupportLink /> and we will tell you how to pay.
      </Alert.Description>
    </Alert.Root>
  );
}

function PaymentDetails({ settings, request }: { settings: BusinessSettings; request: LocalRequest }) {
  const db = useReplica();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  async function download() {
    setBusy(true);
    setFailed(false);
    try {
      await downloadProForma(db, request, settings);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack gap="4">
      <DataList.Root orientation="horizontal" gap="3" size="md" data-testid="payment-details">
        {paymentLines(settings).map(([label, value]) => (
          <DataList.Item key={label}>
            {/* A fixed label width: the long "IBAN / account number" would push its value out of line on phones. */}
            <DataList.ItemLabel width="40%" flexShrink={0}>
              {label}
            </DataList.ItemLabel>
            <DataList.ItemValue fontFamily={label === 'Account holder' || label === 'Bank' ? undefined : 'mono'} overflowWrap="anywhere">
              {value}
            </DataList.ItemValue>
          </DataList.Item>
        ))}
      </DataList.Root>
      {settings.paymentNote && (
        <Text whiteSpace="pre-wrap" data-testid="payment-note">
          {settings.paymentNote}
        </Text>
      )}
      <Stack gap="2" align="start">
        <Button variant="outline" colorPalette="brand" onClick={() => void download()} loading={busy} loadingText="Preparing the invoice…">
          <FileDown size={iconSize} aria-hidden />
          Download pro-forma invoice
        </Button>
        {failed && (
          <Text color="red.600" role="alert">
            The pro-forma invoice could not be made on this device. Please try again.
          </Text>
        )}
      </Stack>
    </Stack>
  );
}
