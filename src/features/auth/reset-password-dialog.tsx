import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { useMachine } from '@xstate/react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { fromPromise } from 'xstate';
import { texts } from '../../../domain/texts.ts';
import { Popup } from '../../components/popup.tsx';
import { sendResetEmail } from '../../lib/firebase.ts';
import { passwordResetMachine } from './password-reset.machine.ts';

const resetMachine = passwordResetMachine.provide({
  actors: { sendResetEmail: fromPromise<void, { email: string }>(({ input }) => sendResetEmail(input.email)) },
});

export interface ResetPasswordDialogProps {
  open: boolean;
  onClose(): void;
  /** What the user typed on the login form, so they need not type it twice. */
  initialEmail: string;
}

/** The login screen's Reset Your Password popup. */
export function ResetPasswordDialog({ open, onClose, initialEmail }: ResetPasswordDialogProps) {
  const [state, send] = useMachine(resetMachine);
  const [email, setEmail] = useState(initialEmail);
  const [offline, setOffline] = useState(false);
  const formId = useId();

  useEffect(() => {
    if (open) {
      setEmail(initialEmail);
      setOffline(false);
      send({ type: 'RESET' });
    }
  }, [open, initialEmail, send]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!navigator.onLine) {
      setOffline(true);
      return;
    }
    setOffline(false);
    send({ type: 'SEND', email });
  };

  const sending = state.matches('sending');
  return (
    <Popup
      open={open}
      onClose={onClose}
      title="Reset Your Password"
      size="sm"
      footer={
        <>
          <Button type="button" variant="outline" onClick={onClose}>
            Close
          </Button>
          {/* Outside the form in the dialog's footer, so it names its form. */}
          <Button type="submit" form={formId} colorPalette="brand" loading={sending} disabled={!email.trim()}>
            Send reset email
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit}>
        <Stack gap="4">
          <Text color="fg.muted">Enter the email address of your account and we will send you a link to set a new password.</Text>
          <Field.Root>
            <Field.Label>Account email</Field.Label>
            <Input type="email" required autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
          </Field.Root>
          <Text role="status" aria-live="polite" color={state.matches('sent') ? 'green.700' : 'red.600'} minHeight="1lh">
            {offline ? texts.needsConnection : state.matches('sent') ? texts.resetEmailSent : state.matches('failed') ? texts.resetEmailFailed : ''}
          </Text>
        </Stack>
      </form>
    </Popup>
  );
}
