import { useNavigate } from '@tanstack/react-router';
import { useCallback, useSyncExternalStore } from 'react';
import { type ActorRefFrom, createActor, fromPromise } from 'xstate';
import { texts } from '../../../domain/texts.ts';
import { deleteUserDb } from '../../lib/db.ts';
import { signOut } from '../../lib/firebase.ts';
import { useReplica } from '../../lib/replica.ts';
import { setLoading, showMessage } from '../../lib/ui-state.ts';
import { signOutMachine } from './sign-out.machine.ts';
import { sendActivityStatus } from './use-presence.ts';

export type SignOutActor = ActorRefFrom<typeof signOutMachine>;

/**
 * The running sign-out, kept outside React: ending the session unmounts the shell that started it,
 * and the remaining steps (/login, loader off, wipe) must still run.
 */
let running: SignOutActor | null = null;
const listeners = new Set<() => void>();

function setRunning(actor: SignOutActor | null): void {
  running = actor;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The sign-out in progress, if any (the confirmation dialog reads it). */
export function useSignOutActor(): SignOutActor | null {
  return useSyncExternalStore(subscribe, () => running, () => null);
}

/** The shell's log-out action: starts the sign-out machine with the app's real side effects. */
export function useSignOut(): () => void {
  const db = useReplica();
  const navigate = useNavigate();
  return useCallback(() => {
    if (running) return; // a second click while one is under way
    const uid = db.uid;
    const actor = createActor(
      signOutMachine.provide({
        actions: {
          loaderOn: () => setLoading(true),
          loaderOff: () => setLoading(false),
          logError: (_, { step, error }) => console.error(`sign-out: ${step} failed`, error),
          reportFailure: (_, { error }) => {
            console.error('sign-out failed', error);
            showMessage(texts.somethingWentWrong, 'error');
          },
        },
        actors: {
          countUnsent: fromPromise(() => db.outbox.count()),
          markInactive: fromPromise(() => sendActivityStatus('IN_ACTIVE')),
          endSession: fromPromise(() => signOut()),
          goToLogin: fromPromise(() => navigate({ to: '/login' })),
          wipeLocalData: fromPromise(() => deleteUserDb(uid)),
        },
      }),
    );
    actor.start();
    actor.send({ type: 'SIGN_OUT' });
    // Subscribed after SIGN_OUT, so the initial idle snapshot does not read as "over".
    actor.subscribe((snapshot) => {
      // Back to idle (cancelled or failed) or finished: this run is over.
      if (snapshot.status === 'done' || snapshot.matches('idle')) {
        if (running === actor) setRunning(null);
        if (snapshot.status !== 'done') actor.stop();
      }
    });
    setRunning(actor);
  }, [db, navigate]);
}
