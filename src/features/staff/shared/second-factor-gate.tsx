import { Button, Card, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { type ReactNode, useEffect, useState } from 'react';
import { type ActorRefFrom, createActor, fromPromise } from 'xstate';
import { ApiError, NetworkError } from '../../../lib/api-errors.ts';
import type { PortalDb } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { fetchSecurityStatus, forgetVerified, rememberVerified, verifiedInThisSession } from '../../../lib/security.ts';
import { getSessionSignals, subscribeSessionSignals } from '../../../lib/session-signals.ts';
import { useSyncEngine } from '../../../lib/sync/use-sync-engine.ts';
import { AddPasskeyForm, AuthenticatorSetup, RecoveryCodesPanel } from '../../../components/second-factor-setup.tsx';
import { SecondFactorVerify } from '../../../components/second-factor-verify.tsx';
import { type GateAnswer, secondFactorGateMachine } from './second-factor-gate.machine.ts';

type GateActor = ActorRefFrom<typeof secondFactorGateMachine>;

/**
 * The server cannot be asked: no connection (ours, or Firebase's when an expired token cannot be refreshed), or it is
 * down for now (its 5xx answers).
 */
function unreachable(err: unknown): boolean {
  if (err instanceof NetworkError || (err instanceof ApiError && err.status >= 500)) return true;
  const code = typeof err === 'object' && err !== null && 'code' in err ? err.code : null;
  return code === 'auth/network-request-failed' || (typeof navigator !== 'undefined' && navigator.onLine === false);
}

async function askStatus(db: PortalDb): Promise<GateAnswer> {
  try {
    return { kind: 'status', status: await fetchSecurityStatus() };
  } catch (err) {
    if (!unreachable(err)) throw err;
    return { kind: 'unreachable', verifiedHere: await verifiedInThisSession(db).catch(() => false) };
  }
}

/**
 * One gate per signed-in replica, outside React: the staff workspace and the admin pages are two route layouts, and
 * moving between them must not ask the server again nor show the check's spinner. It hears every 403
 * SECOND_FACTOR_REQUIRED and every return online, and stops with the replica.
 */
const gates = new WeakMap<PortalDb, GateActor>();

function gateOf(db: PortalDb): GateActor {
  const known = gates.get(db);
  if (known) return known;
  const actor = createActor(
    secondFactorGateMachine.provide({
      actions: {
        remember: () => void rememberVerified(db).catch(() => undefined),
        forget: () => void forgetVerified(db).catch(() => undefined),
      },
      actors: { askStatus: fromPromise(() => askStatus(db)) },
    }),
  );
  // A sign-out closes the replica: its gate stops listening at the next thing it hears.
  const closed = () => {
    if (!db.hasBeenClosed()) return false;
    stopSignals();
    window.removeEventListener('online', onOnline);
    actor.stop();
    return true;
  };
  let asked = getSessionSignals().secondFactorAsked;
  const stopSignals = subscribeSessionSignals(() => {
    const now = getSessionSignals().secondFactorAsked;
    if (now === asked || closed()) return;
    asked = now;
    actor.send({ type: 'REQUIRED_AGAIN' });
  });
  const onOnline = () => {
    if (!closed()) actor.send({ type: 'RETRY' });
  };
  window.addEventListener('online', onOnline);
  actor.start();
  gates.set(db, actor);
  return actor;
}

/**
 * Staff and admins see the workspace only once this session has verified its second factor (the server refuses
 * their calls until then): enrolment at the first staff sign-in, verification at every other. See the machine.
 */
export function SecondFactorGate({ children }: { children: ReactNode }) {
  const db = useReplica();
  const engine = useSyncEngine();
  const [actor] = useState(() => gateOf(db));
  const state = useSelector(actor, (s) => s.value);
  const status = useSelector(actor, (s) => s.context.status);
  const codes = useSelector(actor, (s) => s.context.recoveryCodes);
  const error = useSelector(actor, (s) => s.context.error);
  const open = state === 'open' || state === 'openOffline';

  // Once open, the staff feed (refused until now) fills the workspace's copies.
  useEffect(() => {
    if (state === 'open') void engine.requestStaffPull();
  }, [state, engine]);

  if (open) return <>{children}</>;
  if (state === 'checking') {
    return (
      <Stack align="center" py="16" gap="3" role="status" data-testid="second-factor-checking">
        <Spinner color="brand.solid" />
        <Text color="fg.muted">Checking your sign-in…</Text>
      </Stack>
    );
  }
  return (
    <GateCard title={state === 'enrolling' ? 'Protect your staff account' : state === 'showingCodes' ? 'Save your recovery codes' : 'Confirm it’s you'}>
      {state === 'enrolling' && <Enrolment onEnrolled={(recoveryCodes) => actor.send({ type: 'ENROLLED', recoveryCodes })} />}
      {state === 'showingCodes' && codes && <RecoveryCodesPanel titled={false} codes={codes} onDone={() => actor.send({ type: 'CODES_SAVED' })} />}
      {state === 'verifying' && status && (
        <Stack gap="4">
          <Text>
            Staff accounts need a second step at every sign-in.{' '}
            {status.passkeys.length > 0 && status.totp ? 'Use your passkey, or the code from your authenticator app.' : status.totp ? 'Enter the code from your authenticator app.' : 'Use your passkey.'}
          </Text>
          <SecondFactorVerify status={status} onVerified={() => actor.send({ type: 'VERIFIED' })} />
        </Stack>
      )}
      {state === 'offline' && (
        <Stack gap="4">
          <Text>You are offline. The staff workspace opens once this sign-in has been confirmed with your second factor, which needs a connection.</Text>
          <Button variant="outline" colorPalette="brand" alignSelf="start" onClick={() => actor.send({ type: 'RETRY' })}>
            Try again
          </Button>
        </Stack>
      )}
      {state === 'failed' && (
        <Stack gap="4">
          <Text role="alert">{error ?? 'Something went wrong.'}</Text>
          <Button variant="outline" colorPalette="brand" alignSelf="start" onClick={() => actor.send({ type: 'RETRY' })}>
            Try again
          </Button>
        </Stack>
      )}
    </GateCard>
  );
}

function GateCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card.Root as="section" variant="elevated" bg="portal.white" maxWidth="560px" aria-labelledby="second-factor-title" data-testid="second-factor-gate">
      <Card.Header px={{ base: '4', md: '6' }}>
        <Heading as="h1" id="second-factor-title" fontSize="1.25rem" fontWeight="semibold">
          {title}
        </Heading>
      </Card.Header>
      <Card.Body pt="3" px={{ base: '4', md: '6' }}>
        {children}
      </Card.Body>
    </Card.Root>
  );
}

/** The first factor of a staff account: a passkey first; an authenticator app for devices without passkeys. */
function Enrolment({ onEnrolled }: { onEnrolled(recoveryCodes?: string[]): void }) {
  const [method, setMethod] = useState<'passkey' | 'app'>('passkey');
  return (
    <Stack gap="5">
      <Text>Staff accounts can open every client's file, so a password alone is not enough. Add a second step now; you will use it at every sign-in.</Text>
      {method === 'passkey' ? (
        <>
          <Text>A passkey uses this device's fingerprint, face or screen lock. Nothing to type, and it cannot be phished.</Text>
          <AddPasskeyForm onAdded={(r) => onEnrolled(r.recoveryCodes)} />
          <Button variant="plain" colorPalette="brand" color="brand.fg" alignSelf="start" px="0" onClick={() => setMethod('app')}>
            Use an authenticator app instead
          </Button>
        </>
      ) : (
        <>
          <AuthenticatorSetup onConfirmed={(r) => onEnrolled(r.recoveryCodes)} />
          <Button variant="plain" colorPalette="brand" color="brand.fg" alignSelf="start" px="0" onClick={() => setMethod('passkey')}>
            Use a passkey instead
          </Button>
        </>
      )}
    </Stack>
  );
}
