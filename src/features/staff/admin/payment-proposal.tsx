import { Alert, Box, Button, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { useRef } from 'react';
import { type BusinessSettings, BusinessSettingsWrite, PAYMENT_FIELDS, type PaymentDetailsProposal, type PaymentField, SINGLE_ADMIN_TEXT } from '../../../../domain/business-settings.ts';
import { formatDateTime } from '../../../../domain/format.ts';
import { apiRequest, readData } from '../../../lib/api.ts';
import { useReplica } from '../../../lib/replica.ts';
import { useAdminSubmit } from './admin-shared.tsx';

const LABELS: Record<PaymentField, string> = {
  accountHolder: 'Account holder',
  bankName: 'Bank',
  accountNumber: 'IBAN / account number',
  bic: 'BIC / SWIFT',
};

type Decision = 'approve' | 'reject' | 'withdraw';

const DONE: Record<Decision, string> = {
  approve: 'New payment details approved. Clients see them now, with a notice that they changed.',
  reject: 'The proposed payment details were rejected. Clients keep the current ones.',
  withdraw: 'Your proposal was withdrawn. Clients keep the current payment details.',
};

/**
 * A pending change of the payment details (docs/decisions/032-payment-details-four-eyes.md): what clients see now
 * beside what was proposed, who proposed it and when. Another admin may approve or reject it; the admin who
 * proposed it may withdraw it, and is told plainly when nobody else could approve it. The server enforces all of
 * this; the buttons only offer what it allows.
 */
export function PendingProposal({
  proposal,
  admins,
  current,
  myUid,
  onDecided,
}: {
  proposal: PaymentDetailsProposal;
  admins: number;
  current: BusinessSettings;
  myUid: string;
  onDecided(): void;
}) {
  const db = useReplica();
  const { sending, submit } = useAdminSubmit();
  const keys = useRef<Partial<Record<Decision, string>>>({});
  const mine = proposal.proposedBy.uid === myUid;
  const proposer = proposal.proposedBy.email;

  async function decide(decision: Decision) {
    // One key per decision of this proposal: a retry after a lost answer replays it instead of failing as decided.
    const key = (keys.current[decision] ??= crypto.randomUUID());
    await submit(
      async () => {
        const res = await apiRequest(`/staff/business-settings/proposals/${encodeURIComponent(proposal.id)}/${decision}`, { method: 'POST', headers: { 'Idempotency-Key': key } });
        const next = await readData(res, BusinessSettingsWrite);
        await db.businessSettings.put(next.settings);
      },
      DONE[decision],
      () => undefined,
    );
    onDecided();
  }

  return (
    <Alert.Root status="warning" borderRadius="l3" alignItems="flex-start" data-testid="payment-proposal" role="region" aria-label="New payment details awaiting approval">
      <Alert.Indicator />
      <Stack gap="3" flex="1" minWidth="0">
        <Alert.Title>New payment details await approval</Alert.Title>
        <Text>
          Proposed by <strong>{mine ? `you (${proposer})` : proposer}</strong> on {formatDateTime(proposal.proposedAt)}. Clients keep seeing the current details until a second admin approves.
        </Text>
        <Stack gap="2" as="dl">
          {PAYMENT_FIELDS.map((field) => {
            const now = current[field];
            const next = proposal.after[field];
            const changed = now !== next;
            return (
              <Box key={field} data-testid={`proposal-${field}`}>
                <Text as="dt" fontWeight="semibold" fontSize="sm">
                  {LABELS[field]}
                  {changed ? ' (changes)' : ' (unchanged)'}
                </Text>
                <Box as="dd" ms="0" fontFamily={field === 'accountNumber' || field === 'bic' ? 'mono' : undefined} overflowWrap="anywhere">
                  {changed ? (
                    <>
                      <Text>
                        Now:{' '}
                        <Text as="s" color="fg.muted">
                          {now || '(empty)'}
                        </Text>
                      </Text>
                      <Text>
                        New:{' '}
                        <Text as="strong" fontWeight="bold">
                          {next || '(empty)'}
                        </Text>
                      </Text>
                    </>
                  ) : (
                    <Text>{now || '(empty)'}</Text>
                  )}
                </Box>
              </Box>
            );
          })}
        </Stack>
        {mine ? (
          <>
            {admins <= 1 ? (
              <Text fontWeight="semibold" data-testid="single-admin">
                {SINGLE_ADMIN_TEXT.replace(' Add an admin in Team.', ' ')}
                <Link asChild color="brand.fg">
                  <RouterLink to="/staff/team">Add an admin in Team.</RouterLink>
                </Link>
              </Text>
            ) : (
              <Text>Another admin must approve it. Each admin was told in the app and by email.</Text>
            )}
            <HStack>
              <Button variant="outline" colorPalette="gray" bg="portal.white" loading={sending} onClick={() => void decide('withdraw')}>
                Withdraw
              </Button>
            </HStack>
          </>
        ) : (
          <>
            <Text>
              Before you approve, check with {proposer} in person or by phone that they made this change: a stolen admin account looks the same as a real one here.
            </Text>
            <HStack gap="3" flexWrap="wrap">
              <Button colorPalette="brand" loading={sending} onClick={() => void decide('approve')}>
                Approve
              </Button>
              <Button variant="outline" colorPalette="red" bg="portal.white" loading={sending} onClick={() => void decide('reject')}>
                Reject
              </Button>
            </HStack>
          </>
        )}
      </Stack>
    </Alert.Root>
  );
}
