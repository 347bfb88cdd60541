import { Spinner, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { type ReactNode, Suspense, lazy, useEffect, useState } from 'react';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, NetworkError } from '../../lib/api-errors.ts';
import type { PortalDb } from '../../lib/db.ts';
import { useReplica } from '../../lib/replica.ts';
import { fetchSecurityStatus, forgetVerified, rememberVerified, verifiedInThisSession } from '../../lib/security.ts';
import { getSessionSignals, subscribeSessionSignals } from '../../lib/session-signals.ts';
import { useSyncEngine } from '../../lib/sync/use-sync-engine.ts';
import { type GateActor, type GateAnswer, secondFactorGateMachine } from './second-factor-gate.machine.ts';

const GateCard = lazy(() => import('./second-factor-gate-card.tsx').then((m) => ({ default: m.SecondFactorGateCard })));

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

/** Resolves once this replica's gate has opened (the server lets this session through); rejects if it stops first. */
export function whenSecondFactorVerified(db: PortalDb): Promise<unknown> {
  return waitFor(gateOf(db), (s) => s.matches('open'), { timeout: Infinity });
}

/**
 * The signed-in screens show once the server lets this session through: staff and admins verify their second factor
 * in every session (enrolling at the first staff sign-in), and so does any account that has one. The signed-in
 * layout's gate opens a client's screens at once and closes on the first 403 SECOND_FACTOR_REQUIRED; the staff
 * workspace's and admin pages' gates (`check`) ask before showing anything. Both are one machine per replica, so the
 * card is drawn once, by the outer gate. See the machine.
 */
export function SecondFactorGate({ children, check = false }: { children: ReactNode; check?: boolean }) {
  const db = useReplica();
  const engine = useSyncEngine();
  const [actor] = useState(() => gateOf(db));
  const state = useSelector(actor, (s) => s.value);
  const open = state === 'open' || state === 'openOffline' || (state === 'unchecked' && !check);

  useEffect(() => {
    if (check && state === 'unchecked') actor.send({ type: 'CHECK' });
  }, [check, state, actor]);

  // Once open, the feeds refused until now fill the device's copies, and the writes that waited for the factor go.
  // The outer gate does it: it stays mounted while the card is shown.
  useEffect(() => {
    if (check || state !== 'open') return;
    void engine.pullEverything().catch(() => undefined);
    engine.wake();
  }, [check, state, engine]);

  if (open) return <>{children}</>;
  if (state === 'checking' || state === 'unchecked') return <Checking />;
  return (
    <Suspense fallback={<Checking />}>
      <GateCard actor={actor} />
    </Suspense>
  );
}

function Checking() {
  return (
    <Stack align="center" py="16" gap="3" role="status" data-testid="second-factor-checking">
      <Spinner color="brand.solid" />
      <Text color="fg.muted">Checking your sign-in…</Text>
    </Stack>
  );
}
