import { Button, Field, Heading, Input, Separator, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { generatePassword } from '../../../../domain/passwords.ts';
import { texts } from '../../../../domain/texts.ts';
import { changePassword } from '../../../lib/firebase.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { CopyField } from '../../../components/copy-field.tsx';

const empty = { current: '', next: '', confirm: '' };

/** Settings → Security: change password (current one re-verified first) and the password generator. */
export function SecurityTab() {
  return (
    <Stack gap="8" maxWidth="480px">
      <ChangePasswordForm />
      <Separator />
      <PasswordGenerator />
    </Stack>
  );
}

function ChangePasswordForm() {
  const [fields, setFields] = useState(empty);
  const { running, run } = useOnlineAction();
  const set = (key: keyof typeof empty) => (value: string) => setFields((f) => ({ ...f, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const outcome = await run(async () => {
      // The spec shows no match check; a typo in the confirmation must still not become the password.
      if (fields.next !== fields.confirm) throw new Error('The new passwords do not match.');
      await changePassword(fields.current, fields.next);
    });
    if (!outcome || (!outcome.ok && outcome.offline)) return;
    if (outcome.ok) showMessage(texts.passwordUpdated, 'success');
    else showMessage(texts.passwordChangeErrorPrefix + (outcome.error instanceof Error ? outcome.error.message : String(outcome.error)), 'error');
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
        <Button type="submit" colorPalette="brand" loading={running} alignSelf="flex-start" disabled={!fields.current || !fields.next || !fields.confirm}>
          Change password
        </Button>
      </Stack>
    </form>
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
