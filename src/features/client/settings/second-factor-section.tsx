import { Badge, Box, Button, HStack, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { KeyRound, Smartphone } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { formatDate } from '../../../../domain/format.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { AddPasskeyForm, AuthenticatorSetup, type Enrolled, RecoveryCodesPanel } from '../../../components/second-factor-setup.tsx';
import { NetworkError } from '../../../lib/api-errors.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { type PasskeyItem, type SecurityStatus, fetchSecurityStatus, newRecoveryCodes, removePasskey, removeTotp } from '../../../lib/security.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../../../lib/use-online-action.ts';

type Loaded = { status: SecurityStatus } | { error: string; offline: boolean } | null;

/** GET /api/security for the section; asked again after every change and on return online. */
function useSecurityStatus(): { loaded: Loaded; reload(): void } {
  const [loaded, setLoaded] = useState<Loaded>(null);
  const [round, setRound] = useState(0);
  const online = useOnline();
  useEffect(() => {
    let live = true;
    fetchSecurityStatus().then(
      (status) => live && setLoaded({ status }),
      (err: unknown) => live && setLoaded({ error: failureText(err), offline: err instanceof NetworkError }),
    );
    return () => {
      live = false;
    };
  }, [round, online]);
  return { loaded, reload: useCallback(() => setRound((n) => n + 1), []) };
}

type Confirming = { kind: 'passkey'; passkey: PasskeyItem } | { kind: 'totp' } | { kind: 'codes' } | null;

/**
 * Settings → Security, the second factor: passkeys, the authenticator app and the recovery codes. Required for staff
 * (the server refuses to remove their last factor), recommended for clients, whose every sign-in asks for it once they
 * have one. Changes to an account that has a factor
 * ask for it again (step-up, the shared dialog).
 */
export function SecondFactorSection({ staff }: { staff: boolean }) {
  const { loaded, reload } = useSecurityStatus();
  const [adding, setAdding] = useState<'passkey' | 'app' | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [confirming, setConfirming] = useState<Confirming>(null);
  const { running, run } = useOnlineAction();

  const enrolled = (result: Enrolled) => {
    setAdding(null);
    if (result.recoveryCodes?.length) setCodes(result.recoveryCodes);
    showMessage('Your second factor is saved.', 'success');
    reload();
  };

  async function confirm() {
    const step = confirming;
    if (!step) return;
    const outcome = await run(async () => {
      if (step.kind === 'passkey') await removePasskey(step.passkey.id);
      else if (step.kind === 'totp') await removeTotp();
      else return newRecoveryCodes();
      return null;
    });
    if (!outcome) return;
    setConfirming(null);
    if (outcome.ok) {
      if (outcome.value) setCodes(outcome.value);
      else showMessage(step.kind === 'passkey' ? 'The passkey is removed.' : 'The authenticator app is removed.', 'success');
      reload();
    } else if (!outcome.offline) showMessage(failureText(outcome.error), 'error');
  }

  return (
    <Stack gap="4" as="section" aria-labelledby="second-factor-heading">
      <Heading as="h2" id="second-factor-heading" fontSize="md" fontWeight="semibold">
        Two-step sign-in
      </Heading>
      <Text color="fg.muted">
        {staff
          ? 'Staff accounts confirm every sign-in with a passkey or an authenticator app.'
          : loaded && 'status' in loaded && loaded.status.required
            ? 'On: every sign-in to your account asks for your passkey or a code from your authenticator app.'
            : 'Recommended: with a second step, a stolen password alone cannot open your account.'}
      </Text>
      {codes ? (
        <RecoveryCodesPanel codes={codes} onDone={() => setCodes(null)} />
      ) : loaded === null ? (
        <Spinner color="brand.solid" aria-label="Loading" />
      ) : 'error' in loaded ? (
        <Text role="alert" color={loaded.offline ? 'orange.700' : 'red.600'}>
          {loaded.offline ? 'You are offline. Your second factor can be managed when you are back online.' : loaded.error}
        </Text>
      ) : (
        <FactorList status={loaded.status} busy={running} adding={adding} setAdding={setAdding} onEnrolled={enrolled} confirm={setConfirming} />
      )}
      <ConfirmPopup
        open={confirming !== null}
        title={confirming?.kind === 'codes' ? 'Make new recovery codes?' : 'Remove this second factor?'}
        confirmLabel={confirming?.kind === 'codes' ? 'Yes, new codes' : 'Yes, remove'}
        danger={confirming?.kind !== 'codes'}
        busy={running}
        onConfirm={() => void confirm()}
        onClose={() => setConfirming(null)}
      >
        {confirming?.kind === 'codes'
          ? 'Your current recovery codes stop working. The new ones are shown once.'
          : confirming?.kind === 'passkey'
            ? `The passkey "${confirming.passkey.name}" will no longer sign you in.`
            : 'Codes from your authenticator app will no longer sign you in.'}
      </ConfirmPopup>
    </Stack>
  );
}

function FactorList({
  status,
  busy,
  adding,
  setAdding,
  onEnrolled,
  confirm,
}: {
  status: SecurityStatus;
  busy: boolean;
  adding: 'passkey' | 'app' | null;
  setAdding(what: 'passkey' | 'app' | null): void;
  onEnrolled(result: Enrolled): void;
  confirm(what: Confirming): void;
}) {
  const hasFactor = status.passkeys.length > 0 || status.totp;
  return (
    <Stack gap="5">
      <Stack gap="2">
        <HStack gap="2">
          <KeyRound size={18} aria-hidden="true" />
          <Text fontWeight="semibold">Passkeys</Text>
        </HStack>
        {status.passkeys.length === 0 ? (
          <Text color="fg.muted">No passkey yet.</Text>
        ) : (
          <Stack as="ul" gap="2" listStyleType="none" m="0" p="0" aria-label="Passkeys">
            {status.passkeys.map((passkey) => (
              <HStack as="li" key={passkey.id} justify="space-between" gap="3" wrap="wrap" borderWidth="1px" borderColor="portal.border" borderRadius="md" p="3">
                <Box minWidth="0">
                  <Text fontWeight="medium" wordBreak="break-word">
                    {passkey.name}
                  </Text>
                  <Text fontSize="sm" color="fg.muted">
                    Added {formatDate(passkey.createdAt)}
                    {passkey.lastUsedAt ? ` · last used ${formatDate(passkey.lastUsedAt)}` : ''}
                  </Text>
                </Box>
                <Button size="sm" variant="outline" colorPalette="red" disabled={busy} onClick={() => confirm({ kind: 'passkey', passkey })} aria-label={`Remove passkey ${passkey.name}`}>
                  Remove
                </Button>
              </HStack>
            ))}
          </Stack>
        )}
        {adding === 'passkey' ? (
          <Box borderWidth="1px" borderColor="portal.border" borderRadius="md" p="4">
            <AddPasskeyForm onAdded={onEnrolled} />
          </Box>
        ) : (
          <Button size="sm" variant="outline" colorPalette="brand" alignSelf="start" onClick={() => setAdding('passkey')} disabled={busy}>
            Add a passkey
          </Button>
        )}
      </Stack>
      <Stack gap="2">
        <HStack gap="2">
          <Smartphone size={18} aria-hidden="true" />
          <Text fontWeight="semibold">Authenticator app</Text>
          <Badge colorPalette={status.totp ? 'green' : 'gray'} variant="subtle">
            {status.totp ? 'On' : 'Off'}
          </Badge>
        </HStack>
        {adding === 'app' ? (
          <Box borderWidth="1px" borderColor="portal.border" borderRadius="md" p="4">
            <AuthenticatorSetup onConfirmed={onEnrolled} />
          </Box>
        ) : (
          <HStack gap="2" wrap="wrap">
            <Button size="sm" variant="outline" colorPalette="brand" onClick={() => setAdding('app')} disabled={busy}>
              {status.totp ? 'Use another authenticator app' : 'Set up an authenticator app'}
            </Button>
            {status.totp && (
              <Button size="sm" variant="outline" colorPalette="red" onClick={() => confirm({ kind: 'totp' })} disabled={busy}>
                Remove
              </Button>
            )}
          </HStack>
        )}
      </Stack>
      {hasFactor && (
        <Stack gap="2">
          <Text fontWeight="semibold">Recovery codes</Text>
          <Text color="fg.muted">
            {status.recoveryCodesLeft} of 10 left. Each one signs you in once if you lose your passkey or phone.
          </Text>
          <Button size="sm" variant="outline" colorPalette="brand" alignSelf="start" onClick={() => confirm({ kind: 'codes' })} disabled={busy}>
            New recovery codes
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
