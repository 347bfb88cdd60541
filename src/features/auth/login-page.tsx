import { Button, Field, Heading, Input, Link, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, Suspense, lazy, useLayoutEffect, useState } from 'react';
import { externalLinks, texts } from '../../../domain/texts.ts';
import { useOnlineAction } from '../../lib/use-online-action.ts';
import { AuthCard } from './auth-card.tsx';
import { followFirstPaintForm } from './first-paint-form.ts';
import { PasswordInput } from './password-input.tsx';

// The dialog and its machine (XState) load when first asked for, not with the sign-in screen; pointing at the
// button starts the download, so it is usually there by the click.
const loadResetDialog = () => import('./reset-password-dialog.tsx');
const ResetPasswordDialog = lazy(() => loadResetDialog().then((m) => ({ default: m.ResetPasswordDialog })));

/** Firebase's errors carry a code; read it without loading the SDK for an instanceof check. */
function isNetworkFailure(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && err.code === 'auth/network-request-failed';
}

/** The Auth SDK loads after the first paint (src/lib/session.ts); by the time someone has typed, it is there. */
async function signIn(email: string, password: string) {
  const firebase = await import('../../lib/firebase.ts');
  return firebase.signIn(email, password);
}

/** /login: outside the shell (its route sends a signed-in user to the dashboard). */
export function LoginPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // What was typed on the static first paint, and where the cursor was, carry over as this screen commits.
  const [firstPaint] = useState(followFirstPaintForm);
  useLayoutEffect(() => {
    if (!firstPaint) return;
    const typed = firstPaint.take();
    setEmail(typed.email);
    setPassword(typed.password);
    if (typed.focused) document.querySelector<HTMLInputElement>(`form input[name="${typed.focused}"]`)?.focus();
  }, [firstPaint]);
  const [error, setError] = useState<string | null>(null);
  const [resetOpen, setResetOpen] = useState(false);
  // Mounted from the first opening on, so closing it still animates.
  const [resetWanted, setResetWanted] = useState(false);
  const { running: busy, run } = useOnlineAction(() => setError(texts.needsConnection));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const outcome = await run(() => signIn(email.trim(), password));
    if (!outcome) return;
    if (outcome.ok) await navigate({ to: '/' });
    // Firebase's own codes are not shown: the spec has one text for every failed sign-in.
    else if (!outcome.offline) setError(isNetworkFailure(outcome.error) ? texts.needsConnection : texts.wrongCredentials);
  };

  // Spec: the inline error clears when either field is edited.
  const edit = (set: (v: string) => void) => (value: string) => {
    set(value);
    setError(null);
  };

  return (
    <AuthCard>
      <Heading as="h1" textStyle="h1" textAlign="center">
        Sign In
      </Heading>
      <form onSubmit={submit}>
        <Stack gap="4">
          <Field.Root invalid={error === texts.wrongCredentials}>
            <Field.Label>Email</Field.Label>
            <Input type="email" name="email" autoComplete="username" required value={email} onChange={(e) => edit(setEmail)(e.target.value)} />
          </Field.Root>
          <Field.Root invalid={error === texts.wrongCredentials}>
            <Field.Label>Password</Field.Label>
            <PasswordInput name="password" autoComplete="current-password" required value={password} onChange={(e) => edit(setPassword)(e.target.value)} />
          </Field.Root>
          <Text role="alert" color={error === texts.needsConnection ? 'orange.700' : 'red.600'} minHeight="1lh" fontSize="sm">
            {error ?? ''}
          </Text>
          <Button type="submit" colorPalette="brand" loading={busy} width="100%">
            Sign In
          </Button>
        </Stack>
      </form>
      <Stack gap="2" alignItems="center" textAlign="center">
        <Button
          variant="plain"
          colorPalette="brand"
          color="brand.fg"
          size="sm"
          onPointerEnter={() => void loadResetDialog()}
          onFocus={() => void loadResetDialog()}
          onClick={() => {
            setResetWanted(true);
            setResetOpen(true);
          }}
        >
          Reset Your Password
        </Button>
        <Text color="fg.muted">
          Don't have an account?{' '}
          <Link href={externalLinks.signUp} target="_blank" rel="noopener noreferrer" color="brand.fg" fontWeight="semibold">
            Sign Up
          </Link>
        </Text>
      </Stack>
      {resetWanted && (
        <Suspense fallback={null}>
          <ResetPasswordDialog open={resetOpen} onClose={() => setResetOpen(false)} initialEmail={email.trim()} />
        </Suspense>
      )}
    </AuthCard>
  );
}
