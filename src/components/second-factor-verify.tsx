import { Button, Field, HStack, Input, Separator, Stack, Text } from '@chakra-ui/react';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { RecoveryCode, TotpCode } from '../../domain/security.ts';
import { ApiError } from '../lib/api-errors.ts';
import { type SecurityStatus, isPasskeyCancelled, passkeysSupported, verifyCode, verifyWithPasskey } from '../lib/security.ts';
import { failureText, useOnlineAction } from '../lib/use-online-action.ts';

/** The words for a refused attempt: the server's own (wrong code, locked for a while), or the browser's cancel. */
export function factorFailureText(err: unknown): string {
  if (isPasskeyCancelled(err)) return 'The passkey was not used. Try again, or use a code instead.';
  if (err instanceof ApiError && err.status === 429) return err.message || 'Too many attempts. Please wait a few minutes and try again.';
  return failureText(err);
}

/**
 * Proves the second factor for this session: a passkey, a 6-digit code from the authenticator app, or (where
 * allowed) one of the recovery codes. Shows only what the account has. `onVerified` runs once the server accepted.
 */
export function SecondFactorVerify({ status, onVerified, allowRecovery = true }: { status: SecurityStatus; onVerified(): void; allowRecovery?: boolean }) {
  const { running, run } = useOnlineAction();
  const [error, setError] = useState<string | null>(null);
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const hasPasskey = status.passkeys.length > 0 && passkeysSupported();
  const canRecover = allowRecovery && status.recoveryCodesLeft > 0;

  async function attempt(send: () => Promise<void>) {
    setError(null);
    const outcome = await run(send);
    if (!outcome) return;
    if (outcome.ok) onVerified();
    else if (!outcome.offline) setError(factorFailureText(outcome.error));
  }

  function submitCode(e: FormEvent) {
    e.preventDefault();
    const parsed = (recovery ? RecoveryCode : TotpCode).safeParse(code);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Check the code');
      return;
    }
    void attempt(async () => {
      await verifyCode(recovery ? { method: 'recovery', code: parsed.data } : { method: 'totp', code: parsed.data });
      setCode('');
    });
  }

  const showCodeForm = recovery || status.totp;
  return (
    <Stack gap="4">
      {hasPasskey && !recovery && (
        <Button colorPalette="brand" loading={running} onClick={() => void attempt(verifyWithPasskey)} alignSelf={{ base: 'stretch', sm: 'start' }}>
          <KeyRound size={18} aria-hidden="true" />
          Use your passkey
        </Button>
      )}
      {hasPasskey && showCodeForm && !recovery && <Separator />}
      {showCodeForm && (
        <form onSubmit={submitCode} noValidate>
          <Stack gap="3">
            <Field.Root invalid={error !== null}>
              <Field.Label>{recovery ? 'Recovery code' : '6-digit code from your authenticator app'}</Field.Label>
              <Input
                name={recovery ? 'recovery-code' : 'code'}
                value={code}
                onChange={(e) => {
                  setCode(e.target.value);
                  setError(null);
                }}
                inputMode={recovery ? 'text' : 'numeric'}
                autoComplete="one-time-code"
                autoCapitalize="off"
                spellCheck={false}
                maxLength={recovery ? 16 : 9}
                fontFamily="mono"
                maxWidth="16rem"
              />
              {recovery && <Field.HelperText>Each recovery code works once.</Field.HelperText>}
            </Field.Root>
            <Button type="submit" colorPalette="brand" variant={hasPasskey && !recovery ? 'outline' : 'solid'} loading={running} alignSelf={{ base: 'stretch', sm: 'start' }}>
              {recovery ? 'Use recovery code' : 'Verify code'}
            </Button>
          </Stack>
        </form>
      )}
      <Text role="alert" color="red.600" fontSize="sm" minHeight={showCodeForm ? '1lh' : undefined}>
        {error ?? ''}
      </Text>
      {canRecover && (
        <HStack>
          <Button
            variant="plain"
            colorPalette="brand"
            color="brand.fg"
            size="sm"
            px="0"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
              setError(null);
            }}
          >
            {recovery ? 'Back to your passkey or app' : 'Use a recovery code'}
          </Button>
        </HStack>
      )}
    </Stack>
  );
}
