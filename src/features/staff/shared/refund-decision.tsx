import { Button, Field, HStack, Input, InputGroup, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { formatMoney } from '../../../../domain/format.ts';
import { centsFromDollars } from '../../../../domain/money.ts';
import { StaffRefund } from '../../../../domain/staff.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { apiSend } from '../../../lib/api.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { VersionConflict } from './conflict-alert.tsx';
import { OfflineHint } from './offline-hint.tsx';
import { parseMoney } from './parse-money.ts';
import { diffRecords } from './record-diff.ts';
import { useVersionedAction } from './use-versioned-action.ts';

const NOTE_MAX = 1000;

function parseRefund(value: unknown): StaffRefund | null {
  const parsed = StaffRefund.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function refundChanges(before: StaffRefund, after: StaffRefund): string[] {
  return diffRecords(before, after, ['status', 'amount', 'note']);
}

/** The amount an approval returns: more than 0, at most what was paid, and for a full refund all of it. */
export function checkRefundAmount(text: string, refund: Pick<StaffRefund, 'paid' | 'refundRequestType'>): { ok: true; value: number } | { ok: false; error: string } {
  const amount = parseMoney(text, 'Amount');
  if (!amount.ok) return amount;
  // Whole cents, as the server checks them: equal amounts are equal integers, with no tolerance.
  const cents = centsFromDollars(amount.value);
  const paid = centsFromDollars(refund.paid);
  if (cents > paid) return { ok: false, error: `Amount cannot be more than the ${formatMoney(refund.paid)} paid` };
  if (refund.refundRequestType === 'FULL' && cents !== paid) {
    return { ok: false, error: `A full refund returns everything paid: ${formatMoney(refund.paid)}` };
  }
  return amount;
}

type Decision = { decision: 'approve'; amount: number; note?: string } | { decision: 'decline'; note: string };

/**
 * Approve (with the amount returned) or decline (with the reason the client reads) a refund request. Like
 * every staff write it carries the version it was made from: someone deciding first opens the conflict screen.
 */
export function RefundDecision({ refund, refreshing, reload }: { refund: StaffRefund; refreshing: boolean; reload(): void }) {
  const online = useOnline();
  const action = useVersionedAction({ record: refund, parseCurrent: parseRefund, reload });
  const [amount, setAmount] = useState(refund.refundRequestType === 'FULL' && refund.paid > 0 ? String(refund.paid) : '');
  const [approveNote, setApproveNote] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'amount' | 'note' | 'reason', string>>>({});
  const [confirming, setConfirming] = useState<Decision | null>(null);
  const busy = action.running || refreshing || !online;

  function askApprove(event: FormEvent) {
    event.preventDefault();
    const checked = checkRefundAmount(amount, refund);
    setErrors(checked.ok ? {} : { amount: checked.error });
    if (checked.ok) setConfirming({ decision: 'approve', amount: checked.value, ...(approveNote.trim() ? { note: approveNote.trim() } : {}) });
  }

  function askDecline(event: FormEvent) {
    event.preventDefault();
    const note = reason.trim();
    setErrors(note ? {} : { reason: 'Reason is required' });
    if (note) setConfirming({ decision: 'decline', note });
  }

  async function decide(decision: Decision) {
    const approve = decision.decision === 'approve';
    const result = await action.perform({
      label: approve ? 'Approve refund' : 'Decline refund',
      success: approve ? 'Refund approved.' : 'Refund declined.',
      fields: ['amount', 'note'],
      send: (version) => apiSend(`/staff/refunds/${encodeURIComponent(refund.id)}/decision`, 'POST', { ...decision, version }, StaffRefund),
    });
    setConfirming(null);
    if (result && result !== 'ok') setErrors({ [result.field === 'note' && !approve ? 'reason' : result.field]: result.message });
  }

  return (
    <Stack gap="3" mt="3" data-testid="refund-decision" {...action.startProps}>
      <VersionConflict
        title="Someone else decided on this refund while you were working on it"
        conflict={action.conflict}
        record={refund}
        refreshing={refreshing}
        running={action.running}
        diff={refundChanges}
        onRedo={() => void action.redo()}
        onDiscard={action.discard}
      />
      {!online && <OfflineHint />}
      {refund.paid > 0 ? (
        <form onSubmit={askApprove} noValidate>
          <Stack gap="2">
            <HStack gap="3" align="start" wrap="wrap">
              <Field.Root required invalid={!!errors.amount} width={{ base: '100%', sm: '180px' }}>
                <Field.Label>
                  Refund amount <Field.RequiredIndicator />
                </Field.Label>
                <InputGroup startElement="$">
                  <Input inputMode="decimal" autoComplete="off" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder="0.00" />
                </InputGroup>
                {errors.amount ? <Field.ErrorText>{errors.amount}</Field.ErrorText> : <Field.HelperText>At most {formatMoney(refund.paid)} paid</Field.HelperText>}
              </Field.Root>
              <Field.Root invalid={!!errors.note} flex="1" minWidth={{ base: '100%', sm: '200px' }}>
                <Field.Label>Note to the client</Field.Label>
                <Input value={approveNote} maxLength={NOTE_MAX} autoComplete="off" onChange={(e) => setApproveNote(e.target.value)} placeholder="Optional" />
                <Field.ErrorText>{errors.note}</Field.ErrorText>
              </Field.Root>
            </HStack>
            <Button type="submit" colorPalette="brand" size="sm" disabled={busy} alignSelf="start">
              Approve refund
            </Button>
          </Stack>
        </form>
      ) : (
        <Text color="fg.muted" fontSize="sm">
          Nothing was paid on this request: the refund can only be declined.
        </Text>
      )}
      <form onSubmit={askDecline} noValidate>
        <Stack gap="2" borderTopWidth="1px" borderColor="portal.border" pt="3">
          <Field.Root required invalid={!!errors.reason}>
            <Field.Label>
              Reason for declining <Field.RequiredIndicator />
            </Field.Label>
            <Textarea value={reason} maxLength={NOTE_MAX} rows={2} onChange={(e) => setReason(e.target.value)} />
            {errors.reason ? <Field.ErrorText>{errors.reason}</Field.ErrorText> : <Field.HelperText>The client reads this.</Field.HelperText>}
          </Field.Root>
          <Button type="submit" colorPalette="red" variant="outline" size="sm" disabled={busy} alignSelf="start">
            Decline refund
          </Button>
        </Stack>
      </form>
      <ConfirmPopup
        open={confirming !== null}
        title={confirming?.decision === 'approve' ? 'Approve this refund?' : 'Decline this refund?'}
        confirmLabel={confirming?.decision === 'approve' ? 'Yes, approve refund' : 'Yes, decline refund'}
        danger={confirming?.decision === 'decline'}
        busy={action.running}
        onConfirm={() => confirming && void decide(confirming)}
        onClose={() => setConfirming(null)}
      >
        {confirming?.decision === 'approve'
          ? `This records the refund as approved for ${formatMoney(confirming.amount)} (the money itself is returned outside the portal). The client is notified.`
          : 'This records the refund as declined, with your reason. The client is notified.'}
      </ConfirmPopup>
    </Stack>
  );
}
