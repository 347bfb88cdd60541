import { Button, Field, HStack, Heading, Link, List, Spinner, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink, useNavigate, useSearch } from '@tanstack/react-router';
import { Check, X } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { passwordRules } from '../../../domain/passwords.ts';
import { texts } from '../../../domain/texts.ts';
import { describeAuthError, isDeadResetLink, sentence } from '../../lib/auth-errors.ts';
import { confirmReset, verifyResetCode } from '../../lib/firebase.ts';
import { showMessage } from '../../lib/ui-state.ts';
import { useOnlineAction } from '../../lib/use-online-action.ts';
import { AuthCard } from './auth-card.tsx';
import { PasswordInput } from './password-input.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';

/** The checklist draws smaller marks than the 22px icons, to sit on a line of text. */
const ruleIconSize = 18;
const redirectDelayMs = 3000;

/** `deadLink`: the way on is a new link; otherwise (no connection, a hiccup) trying this one again may work. */
type Step = { kind: 'verifying' } | { kind: 'invalid'; error: string; deadLink: boolean } | { kind: 'ready'; email: string } | { kind: 'done' };

/** The provider's error in words; shown alone, as the spec shows reset-code errors (section 8), never the SDK's text. */
function errorText(err: unknown): string {
  return sentence(describeAuthError(err, 'resetCode'));
}

/**
 * /initial-password?mode=resetPassword&oobCode=…: the emailed link of a password reset.
 * The code is verified first; its errors are shown as they come (spec section 8), in words, with the way on.
 */
export function InitialPasswordPage() {
  const { oobCode } = useSearch({ from: '/initial-password' });
  const navigate = useNavigate();
  const [step, setStep] = useState<Step>({ kind: 'verifying' });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [resetOpen, setResetOpen] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const { running: busy, run } = useOnlineAction(() => setError(texts.needsConnection));

  useEffect(() => {
    let cancelled = false;
    if (!navigator.onLine) {
      setStep({ kind: 'invalid', error: texts.needsConnection, deadLink: false });
      return;
    }
    setStep({ kind: 'verifying' });
    verifyResetCode(oobCode ?? '').then(
      (email) => !cancelled && setStep({ kind: 'ready', email }),
      (err) => !cancelled && setStep({ kind: 'invalid', error: errorText(err), deadLink: isDeadResetLink(err) }),
    );
    return () => {
      cancelled = true;
    };
  }, [oobCode, attempt]);

  useEffect(() => {
    if (step.kind !== 'done') return;
    const timer = setTimeout(() => void navigate({ to: '/' }), redirectDelayMs);
    return () => clearTimeout(timer);
  }, [step.kind, navigate]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    const outcome = await run(() => confirmReset(oobCode ?? '', password));
    if (!outcome) return;
    if (outcome.ok) {
      showMessage(texts.passwordUpdated, 'success');
      setStep({ kind: 'done' });
    } else if (!outcome.offline && isDeadResetLink(outcome.error)) {
      // Used or expired while the page was open: the form cannot help any more, a new link can.
      setStep({ kind: 'invalid', error: errorText(outcome.error), deadLink: true });
    } else if (!outcome.offline) {
      // The rules checklist does not block the button (spec section 5): the provider's refusal is shown as it is.
      setError(errorText(outcome.error));
    }
  };

  const matches = password === confirm;
  return (
    <AuthCard>
      <Heading as="h1" textStyle="h1" textAlign="center">
        Set a new password
      </Heading>
      {step.kind === 'verifying' && (
        <HStack justifyContent="center" gap="3" color="fg.muted">
          <Spinner size="sm" /> <Text>Checking your link…</Text>
        </HStack>
      )}
      {step.kind === 'invalid' && (
        <Stack gap="4" alignItems="center" textAlign="center">
          <Text role="alert" color="red.600" wordBreak="break-word">
            {step.error}
          </Text>
          {step.deadLink ? (
            <Button colorPalette="brand" width="100%" onClick={() => setResetOpen(true)}>
              Send a new link
            </Button>
          ) : (
            <Button colorPalette="brand" width="100%" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </Button>
          )}
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink to="/login">Back to sign in</RouterLink>
          </Link>
          <ResetPasswordDialog open={resetOpen} onClose={() => setResetOpen(false)} initialEmail="" />
        </Stack>
      )}
      {step.kind === 'done' && (
        <Text role="status" color="green.700" textAlign="center">
          {texts.passwordUpdated}
        </Text>
      )}
      {step.kind === 'ready' && (
        <form onSubmit={submit}>
          <Stack gap="4">
            <Text textAlign="center" color="fg.muted" wordBreak="break-word">
              Account: <Text as="span" fontWeight="semibold" color="portal.text">{step.email}</Text>
            </Text>
            <Field.Root>
              <Field.Label>New Password</Field.Label>
              <PasswordInput autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            </Field.Root>
            <List.Root aria-label="Password rules" variant="plain" gap="1">
              {passwordRules.map((rule) => {
                const ok = rule.test(password);
                return (
                  <List.Item key={rule.id} color={ok ? 'green.700' : 'red.600'} data-met={ok} alignItems="center">
                    <List.Indicator asChild>
                      {ok ? <Check size={ruleIconSize} aria-label="met" /> : <X size={ruleIconSize} aria-label="not met" />}
                    </List.Indicator>
                    {rule.label}
                  </List.Item>
                );
              })}
            </List.Root>
            <Field.Root>
              <Field.Label>Confirm Password</Field.Label>
              <PasswordInput autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
            </Field.Root>
            {(password || confirm) && (
              <HStack role="status" gap="2" color={matches ? 'green.700' : 'red.600'}>
                {matches ? <Check size={ruleIconSize} aria-hidden="true" /> : <X size={ruleIconSize} aria-hidden="true" />}
                <Text>{matches ? texts.passwordsMatch : texts.passwordsDoNotMatch}</Text>
              </HStack>
            )}
            {error && (
              <Text role="alert" color="red.600" wordBreak="break-word">
                {error}
              </Text>
            )}
            {/* Only a mismatch blocks: the strength rules are advice (spec section 5), the provider has the last word. */}
            <Button type="submit" colorPalette="brand" loading={busy} disabled={!password || !matches} width="100%">
              Reset Password
            </Button>
          </Stack>
        </form>
      )}
    </AuthCard>
  );
}
