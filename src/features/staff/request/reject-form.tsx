import { Button, Field, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { actionLabels } from '../../../../domain/lifecycle.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { type ActionFormProps, useFormSend } from './action-props.ts';
import { sendTransition } from './request-api.ts';

const REASON_MAX = 1000;

/** Rejects the request with the reason the client reads in Request Details. Asked twice: it ends the request. */
export function RejectForm({ request, busy, perform }: ActionFormProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState(false);
  const { sending, send } = useFormSend(perform);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!reason.trim()) {
      setError('Reason is required');
      return;
    }
    setError(undefined);
    setConfirming(true);
  }

  async function reject() {
    const text = reason.trim();
    const result = await send({
      label: actionLabels.reject,
      success: 'Request rejected.',
      fields: ['reason'],
      send: (version) => sendTransition(request.id, { to: 'Rejected', version, reason: text }),
      onDone: () => setReason(''),
      onDiscard: () => setReason(''),
    });
    setConfirming(false);
    if (result && result !== 'ok') setError(result.message);
  }

  return (
    <>
      <form onSubmit={submit} noValidate>
      <Stack gap="3">
        <Field.Root required invalid={!!error}>
          <Field.Label>
            Reason for rejection <Field.RequiredIndicator />
          </Field.Label>
          <Textarea value={reason} maxLength={REASON_MAX} rows={3} onChange={(e) => setReason(e.target.value)} />
          {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>The client reads this in Request Details.</Field.HelperText>}
        </Field.Root>
        <Button type="submit" colorPalette="red" variant="outline" disabled={busy} alignSelf="start">
          {actionLabels.reject}
        </Button>
      </Stack>
      </form>
      <ConfirmPopup
        open={confirming}
        title="Reject this request?"
        confirmLabel="Yes, reject"
        danger
        busy={sending}
        onConfirm={() => void reject()}
        onClose={() => setConfirming(false)}
      >
        <Text>The client sees the request as Rejected, with your reason. This cannot be undone from here.</Text>
      </ConfirmPopup>
    </>
  );
}
