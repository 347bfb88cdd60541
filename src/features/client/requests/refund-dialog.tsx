import { Button, Center, Field, RadioGroup, Spinner, Stack, Text, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { refundTypeLabel, refundTypes } from '../../../../domain/enums.ts';
import { RefundBody } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { type CommandEditorProps, saveAndSendLabel, useSaveEdit } from '../../../lib/sync/commands/editor-context.ts';
import { EditRefused } from '../../../components/edit-refused.tsx';
import { queueRefund } from '../../../lib/sync/commands/kinds.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { isAccepted, useQueuedCommand } from '../../../lib/sync/commands/use-queued-command.ts';
import { Popup } from '../../../components/popup.tsx';
import { refundPendingText, undecidedRefund, useRequestRefunds } from './use-refunds.ts';
import { toolOf } from './use-requests.ts';

type RefundType = (typeof refundTypes)[number];

/**
 * Request Refund: reason and type are both required; the refund goes through the outbox. While an earlier
 * refund of the request waits for a decision (sent or still queued), the server would refuse another, so the
 * popup says so instead of offering a form whose answer is known.
 */
export function RefundDialog({ request, onClose }: { request: LocalRequest | null; onClose(): void }) {
  return (
    <Popup open={request !== null} onClose={onClose} title="Request Refund">
      {request && <RefundContent key={request.id} request={request} onClose={onClose} />}
    </Popup>
  );
}

function RefundContent({ request, onClose }: { request: LocalRequest; onClose(): void }) {
  const refunds = useRequestRefunds(request.id);
  const current = refunds === undefined ? null : undecidedRefund(refunds) ? 'blocked' : 'form';
  // Decided once, when the replica first answers: the refund this form queues must not swap the form for the notice.
  const [latched, setLatched] = useState(current);
  if (latched === null && current !== null) setLatched(current);
  const view = latched ?? current;
  if (view === null) {
    return (
      <Center py="6">
        <Spinner color="brand.solid" aria-label="Loading refunds" />
      </Center>
    );
  }
  if (view === 'blocked') {
    return (
      <Stack gap="5">
        <Text data-testid="refund-pending">{refundPendingText}</Text>
        <Stack direction="row" justify="flex-end">
          <Button colorPalette="brand" onClick={onClose}>
            OK
          </Button>
        </Stack>
      </Stack>
    );
  }
  return <RefundForm request={request} onClose={onClose} />;
}

type RefundFields = Pick<RefundBody['refundRequest'], 'reason' | 'refundRequestType'>;

function RefundForm({ request, onClose }: { request: LocalRequest; onClose(): void }) {
  const db = useReplica();
  const { queuing, queue } = useQueuedCommand();

  async function submit(fields: RefundFields) {
    const refund = { tool: request.productRequestType, processId: request.id, ...fields };
    const toolName = toolOf(request)?.header ?? request.productRequestType;
    // Refused by the server: the dialog stays, so the user reads why (the outbox offers Edit and Discard).
    if (isAccepted(await queue(() => queueRefund(db, refund, toolName), { sent: texts.refundSent }))) onClose();
  }
  return <RefundFieldsForm initial={null} busy={queuing} submitLabel="Send" onSubmit={submit} onCancel={onClose} />;
}

/** The outbox's Edit of a refused refund: the same form, prefilled; the request it is for stays the same. */
export function RefundEditDialog({ body, onSave, onClose }: CommandEditorProps<'refund'>) {
  const { busy, refused, save } = useSaveEdit(onSave);
  const submit = async (fields: RefundFields) => void (await save({ refundRequest: { ...body.refundRequest, ...fields } }));
  return (
    <Popup open onClose={onClose} title="Request Refund">
      <RefundFieldsForm initial={body.refundRequest} busy={busy} submitLabel={saveAndSendLabel} onSubmit={submit} onCancel={onClose} />
      <EditRefused text={refused} />
    </Popup>
  );
}

/** The reason error as RefundBody gives it ("reason must be at most 1000 characters"), in the form's words. */
function reasonErrorOf(reason: string): string | null {
  if (reason.trim() === '') return 'Reason is required';
  const parsed = RefundBody.shape.refundRequest.shape.reason.safeParse(reason);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Reason is invalid').replace(/^reason/, 'Reason');
}

function RefundFieldsForm({
  initial,
  busy,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  initial: RefundFields | null;
  busy: boolean;
  submitLabel: string;
  onSubmit(fields: RefundFields): Promise<void>;
  onCancel(): void;
}) {
  const [reason, setReason] = useState(initial?.reason ?? '');
  const [type, setType] = useState<RefundType | ''>(initial?.refundRequestType ?? '');
  const [touched, setTouched] = useState(false);
  const reasonError = reasonErrorOf(reason);
  const typeError = type === '' ? 'Refund type is required' : null;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (reasonError || typeError || type === '') return;
    await onSubmit({ refundRequestType: type, reason: reason.trim() });
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="5">
        <Field.Root required invalid={touched && !!reasonError}>
          <Field.Label>
            Reason <Field.RequiredIndicator />
          </Field.Label>
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={4} maxLength={1000} />
          <Field.ErrorText>{reasonError}</Field.ErrorText>
        </Field.Root>
        <Field.Root required invalid={touched && !!typeError}>
          <RadioGroup.Root value={type} onValueChange={(e) => setType((e.value ?? '') as RefundType | '')} colorPalette="brand" aria-label="Refund type">
            <RadioGroup.Label mb="2" display="block" fontWeight="medium">
              Refund type <Field.RequiredIndicator />
            </RadioGroup.Label>
            <Stack direction={{ base: 'column', sm: 'row' }} gap="5">
              {refundTypes.map((value) => (
                <RadioGroup.Item key={value} value={value}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>{refundTypeLabel[value]}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </Stack>
          </RadioGroup.Root>
          <Field.ErrorText>{typeError}</Field.ErrorText>
        </Field.Root>
        <Stack direction="row" justify="flex-end" gap="3">
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="brand" loading={busy}>
            {submitLabel}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
