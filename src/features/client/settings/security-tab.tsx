import { Button, Field, Heading, HStack, IconButton, Input, Separator, Stack, Text } from '@chakra-ui/react';
import { Check, Copy } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { generatePassword } from '../../../../domain/passwords.ts';
import { texts } from '../../../../domain/texts.ts';
import { changePassword } from '../../../lib/firebase.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { iconSize } from '../../../components/theme-tokens.ts';

/** Spec section 9: the copy icon confirms for 3 s. */
export const copiedForMs = 3000;

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

async function copyText(text: string, fallbackInput: HTMLInputElement | null): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard permission (or an old browser): copy the selected field the old way.
    fallbackInput?.select();
    if (!document.execCommand('copy')) throw new Error('copy refused');
  }
}

function PasswordGenerator() {
  const [password, setPassword] = useState('');
  const [copied, setCopied] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), copiedForMs);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    copyText(password, inputRef.current).then(
      () => setCopied(true),
      () => showMessage(texts.somethingWentWrong, 'error'),
    );
  };

  return (
    <Stack gap="4">
      <Heading as="h2" fontSize="md" fontWeight="semibold">
        Random password generator
      </Heading>
      <Text color="fg.muted">12 random letters and digits.</Text>
      <Field.Root>
        <Field.Label>Generated password</Field.Label>
        <HStack gap="2" width="100%">
          <Input ref={inputRef} readOnly value={password} fontFamily="mono" flex="1" minWidth="0" />
          <IconButton
            aria-label="Copy password"
            variant="outline"
            color={copied ? 'green.700' : 'portal.nav'}
            disabled={!password}
            onClick={copy}
          >
            {copied ? <Check size={iconSize} /> : <Copy size={iconSize} />}
          </IconButton>
        </HStack>
        <Text role="status" aria-live="polite" color="green.700" fontSize="sm" minHeight="1lh">
          {copied ? 'Copied' : ''}
        </Text>
      </Field.Root>
      <Button
        variant="outline"
        colorPalette="brand"
        alignSelf="flex-start"
        onClick={() => {
          setPassword(generatePassword());
          setCopied(false);
        }}
      >
        Generate password
      </Button>
    </Stack>
  );
}
