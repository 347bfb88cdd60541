import { Alert, Button, Field, Heading, Input, Separator, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { generatePassword } from '../../../../domain/passwords.ts';
import { texts } from '../../../../domain/texts.ts';
import { authErrorCode, describeAuthError } from '../../../lib/auth-errors.ts';
import { changePassword, currentUser, sendResetEmail } from '../../../lib/firebase.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { CopyField } from '../../../components/copy-field.tsx';
import { hasRole } from '../../../../domain/roles.ts';
import { useProfile } from '../../../lib/replica.ts';
import { DevicesSection } from './devices-section.tsx';
import { SecondFactorSection } from './second-factor-section.tsx';

const empty = { current: '', next: '', confirm: '' };

/**
 * Settings → Security: the second factor and the signed-in devices, then change password (current one re-verified
 * first) and the password generator.
 */
export function SecurityTab() {
  const staff = hasRole(useProfile(), 'staff');
  return (
    <Stack gap="8" maxWidth="560px">
      <SecondFactorSection staff={staff} />
      <Separator />
      <DevicesSection />
      <Separator />
      <ChangePasswordForm />
      <Separator />
      <PasswordGenerator />
    </Stack>
  );
}

/** The codes after which the way on is a reset link to the user's own address. */
const forgotten = new Set(['auth/wrong-password', 'auth/invalid-credential', 'auth/invalid-login-credentials', 'auth/too-many-requests']);

function ChangePasswordForm() {
  const [fields, setFields] = useState(empty);
  const [failure, setFailure] = useState<{ text: string; offerReset: boolean } | null>(null);
  const { running, run } = useOnlineAction();
  const set = (key: keyof typeof empty) => (value: string) => setFields((f) => ({ ...f, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFailure(null);
    const outcome = await run(async () => {
      // The spec shows no match check; a typo in the confirmation must still not become the password.
      if (fields.next !== fields.confirm) throw new Error('The new passwords do not match.');
      await changePassword(fields.current, fields.next);
    });
    if (!outcome || (!outcome.ok && outcome.offline)) return;
    if (outcome.ok) showMessage(texts.passwordUpdated, 'success');
    // The spec's format ("An Error occurred: " and the error), with the error in words and kept on screen with its way on.
    else setFailure({ text: texts.passwordChangeErrorPrefix + describeAuthError(outcome.error, 'changePassword'), offerReset: forgotten.has(authErrorCode(outcome.error) ?? '') });
    // Spec section 8: the fields are cleared after a failure; after a success nothing is left to keep.
    setFields(empty);
  };

  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack gap="4">
        <Heading as="h2" fontSize="md" fontWeight="semibold">
          Change password
        </Heading>
        <Field.Root>
          <Field.Label>Current password</Field.Label>
          <Input type="password" autoComplete="current-password" value={fields.current} onChange={(e) => set('current')(e.target.value)} />
        </Field.Root>
        <Field.Root>
          <Field.Label>New password</Field.Label>
          <Input type="password" autoComplete="new-password" value={fields.next} onChange={(e) => set('next')(e.target.value)} />
        </Field.Root>
        <Field.Root>
          <Field.Label>Confirm new password</Field.Label>
          <Input type="password" autoComplete="new-password" value={fields.confirm} onChange={(e) => set('confirm')(e.target.value)} />
        </Field.Root>
        {failure && <ChangeFailure text={failure.text} offerReset={failure.offerReset} />}
        <Button type="submit" colorPalette="brand" loading={running} alignSelf="flex-start" disabled={!fields.current || !fields.next || !fields.confirm}>
          Change password
        </Button>
      </Stack>
    </form>
  );
}

/** The failure, in words, with the way on: a forgotten current password is reset through the emailed link. */
function ChangeFailure({ text, offerReset }: { text: string; offerReset: boolean }) {
  const { running, run } = useOnlineAction();
  const [sent, setSent] = useState<string | null>(null);
  const email = currentUser()?.email;
  const sendLink = async () => {
    if (!email) return;
    const outcome = await run(() => sendResetEmail(email));
    if (outcome?.ok) setSent(texts.resetEmailSent);
    else if (outcome && !outcome.offline) setSent(texts.resetEmailFailed);
  };
  return (
    <Alert.Root status="error" variant="subtle" alignItems="start" role="alert">
      <Alert.Indicator />
      <Alert.Content gap="2">
        <Alert.Title fontWeight="medium">{text}</Alert.Title>
        {offerReset && email && (
          <Alert.Description>
            <Stack gap="2" alignItems="start">
              <Text>Forgot your current password? We can email you a link to set a new one.</Text>
              <Button size="sm" variant="outline" colorPalette="brand" bg="portal.white" loading={running} onClick={() => void sendLink()}>
                Send me a reset link
              </Button>
              {sent && (
                <Text role="status" fontWeight="medium">
                  {sent}
                </Text>
              )}
            </Stack>
          </Alert.Description>
        )}
      </Alert.Content>
    </Alert.Root>
  );
}

function PasswordGenerator() {
  const [password, setPassword] = useState('');

  return (
    <Stack gap="4">
      <Heading as="h2" fontSize="md" fontWeight="semibold">
        Random password generator
      </Heading>
      <Text color="fg.muted">12 random letters and digits.</Text>
      <Field.Root>
        <Field.Label>Generated password</Field.Label>
        <CopyField value={password} copyLabel="Copy password" />
      </Field.Root>
      <Button
        variant="outline"
        colorPalette="brand"
        alignSelf="flex-start"
        onClick={() => setPassword(generatePassword())}
      >
        Generate password
      </Button>
    </Stack>
  );
}
