import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { type ActorRefFrom, createActor, fromPromise } from 'xstate';
import { texts } from '../../../domain/texts.ts';
import { createStore } from '../../lib/create-store.ts';
import { deleteUserDb } from '../../lib/db.ts';
import { signOut } from '../../lib/firebase.ts';
import { atMost, browserPushEnv, forgetDevice } from '../../lib/push.ts';
import { useReplica } from '../../lib/replica.ts';
import { setLoading, showMessage } from '../../lib/ui-state.ts';
import { signOutMachine } from './sign-out.machine.ts';
import { sendActivityStatus } from './use-presence.ts';

/** How long sign-out waits for the server to forget the device's push subscription. */
const PUSH_FORGET_WAIT_MS = 3000;

export type SignOutActor = ActorRefFrom<typeof signOutMachine>;

/**
 * The running sign-out, kept outside React: ending the session unmounts the shell that started it,
 * and the remaining steps (/login, loader off, wipe) must still run.
 */
const store = createStore<{ running: SignOutActor | null }>({ running: null });

/** The sign-out in progress, if any (the confirmation dialog reads it). */
export function useSignOutActor(): SignOutActor | null {
  return store.useSelect((s) => s.running);
}

/** The shell's log-out action: starts the sign-out machine with the app's real side effects. */
export function useSignOut(): () => void {
  const db = useReplica();
  const navigate = useNavigate();
  return useCallback(() => {
    if (store.get().running) return; // a second click while one is under way
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
          // The server forgets this device's push subscription while the session can still say whose it is: best
          // effort, and never more than a moment's wait (the next user of the device gets no pushes of this one's).
          markInactive: fromPromise(async () => {
            await Promise.all([sendActivityStatus('IN_ACTIVE'), atMost(PUSH_FORGET_WAIT_MS, forgetDevice(browserPushEnv()))]);
          }),
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
        if (store.get().running === actor) store.set({ running: null });
        if (snapshot.status !== 'done') actor.stop();
      }
    });
    store.set({ running: actor });
  }, [db, navigate]);
}
