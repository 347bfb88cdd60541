import { Alert, Button, Field, Heading, Input, Link, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, Suspense, lazy, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { externalLinks, texts } from '../../../domain/texts.ts';
import { claimInlineConnectionNotice, connectionLostText, useChunkWaiting, waitForConnection } from '../../lib/lazy-import.ts';
import { clearSessionEndNotice, readSessionEndNotice, sessionEndText } from '../../lib/session-end-notice.ts';
import { useOnlineAction } from '../../lib/use-online-action.ts';
import { AuthCard } from './auth-card.tsx';
import { followFirstPaintForm } from './first-paint-form.ts';
import { PasswordInput } from './password-input.tsx';

// The dialog and its machine (XState) load when first asked for, not with the sign-in screen; pointing at the
// button starts the download, so it is usually there by the click.
const loadResetDialog = () => import('./reset-password-dialog.tsx');
const ResetPasswordDialog = lazy(() => loadResetDialog().then((m) => ({ default: m.ResetPasswordDialog })));

/** Firebase's errors carry a code; read it without loading the SDK for an instanceof check. */
function authCode(err: unknown): string | null {
  return typeof err === 'object' && err !== null && 'code' in err && typeof err.code === 'string' ? err.code : null;
}

/**
 * Only Firebase's answer to the credentials reads as a wrong password (the spec has one text for every refused
 * sign-in); a failure of the connection is retried, and one of the app's own code is not the password's fault.
 */
function refusedByFirebase(err: unknown): boolean {
  const code = authCode(err);
  return code !== null && code.startsWith('auth/') && code !== 'auth/network-request-failed';
}

/** Raised when the person changed the form while a sign-in waited for the connection: that sign-in stops. */
class SignInAbandoned extends Error {}

/**
 * Signs in, and where the connection failed, waits for it and tries again with what was typed, saying so
 * (`onWaiting`) meanwhile. The Auth SDK loads after the first paint (src/lib/session.ts); its module arrives
 * through the chunk loader, which itself waits for the connection (src/lib/lazy-import.ts), so `import` here only
 * rejects for a failure no connection fixes.
 */
async function signInWhenConnected(email: string, password: string, onWaiting: (waiting: boolean) => void, abandoned: () => boolean) {
  for (let attempt = 0; ; attempt++) {
    try {
      const firebase = await import('../../lib/firebase.ts');
      if (abandoned()) throw new SignInAbandoned();
      return await firebase.signIn(email, password);
    } catch (err) {
      if (authCode(err) !== 'auth/network-request-failed' || abandoned()) throw err;
      onWaiting(true);
      await waitForConnection(attempt);
      if (abandoned()) throw new SignInAbandoned();
    }
  }
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
  // Why the last session ended, when the server ended it (signed out from another device, account disabled).
  const [endNotice] = useState(readSessionEndNotice);
  const [resetOpen, setResetOpen] = useState(false);
  // Mounted from the first opening on, so closing it still animates.
  const [resetWanted, setResetWanted] = useState(false);
  const { running: busy, run } = useOnlineAction(() => setError(texts.needsConnection));
  // This form says itself when a part of the app waits for the connection (not the app-wide banner).
  useEffect(() => claimInlineConnectionNotice(), []);
  const chunkWaiting = useChunkWaiting();
  const [signInWaiting, setSignInWaiting] = useState(false);
  // Bumped by an edit: a sign-in waiting for the connection stops rather than send what is no longer typed.
  const generation = useRef(0);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const mine = ++generation.current;
    const outcome = await run(() => signInWhenConnected(email.trim(), password, setSignInWaiting, () => generation.current !== mine));
    setSignInWaiting(false);
    if (!outcome) return;
    if (outcome.ok) {
      clearSessionEndNotice();
      await navigate({ to: '/' });
    }
    else if (outcome.error instanceof SignInAbandoned || outcome.offline) return;
    // Firebase's own codes are not shown: the spec has one text for every failed sign-in.
    else setError(refusedByFirebase(outcome.error) ? texts.wrongCredentials : texts.somethingWentWrong);
  };

  // Spec: the inline error clears when either field is edited.
  const edit = (set: (v: string) => void) => (value: string) => {
    set(value);
    setError(null);
    generation.current++;
  };
  // What the status line says: the error of the last try, else that the connection is being waited for.
  const waitingText = signInWaiting || chunkWaiting ? connectionLostText : null;
  const status = error ?? waitingText;

  return (
    <AuthCard>
      <Heading as="h1" textStyle="h1" textAlign="center">
        Sign In
      </Heading>
      {endNotice && (
        <Alert.Root status="warning" variant="subtle" data-testid="session-ended">
          <Alert.Indicator />
          <Alert.Title fontWeight="medium">{sessionEndText(endNotice)}</Alert.Title>
        </Alert.Root>
      )}
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
          <Text role="alert" color={status === texts.needsConnection || status === connectionLostText ? 'orange.700' : 'red.600'} minHeight="1lh" fontSize="sm">
            {status ?? ''}
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
