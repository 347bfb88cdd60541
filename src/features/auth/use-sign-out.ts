import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect } from 'react';
import { type ActorRefFrom, createActor, fromPromise } from 'xstate';
import { texts } from '../../../domain/texts.ts';
import { createStore } from '../../lib/create-store.ts';
import { deleteUserDb } from '../../lib/db.ts';
import { signOut } from '../../lib/firebase.ts';
import { atMost, browserPushEnv, forgetDevice } from '../../lib/push.ts';
import { useReplica } from '../../lib/replica.ts';
import { keepSessionEndNotice } from '../../lib/session-end-notice.ts';
import { getSessionSignals, resetSessionSignals, useSessionEnded } from '../../lib/session-signals.ts';
import { getUiState, removeMessage, setLoading, showMessage } from '../../lib/ui-state.ts';
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
  const begin = useSignOutRun();
  return useCallback(() => begin({ type: 'SIGN_OUT' }), [begin]);
}

/**
 * A session the server ended (a 401 SESSION_ENDED heard by any call: session-signals.ts) signs this device out at
 * once, wiping the replica and the outbox as a sign-out does, and the login page says why. A sign-out already
 * asking about unsent commands is taken over.
 */
export function useSignOutWhenSessionEnds(): void {
  const ended = useSessionEnded();
  const begin = useSignOutRun();
  useEffect(() => {
    if (ended) begin({ type: 'SESSION_ENDED' });
  }, [ended, begin]);
}

function useSignOutRun(): (event: { type: 'SIGN_OUT' } | { type: 'SESSION_ENDED' }) => void {
  const db = useReplica();
  const navigate = useNavigate();
  return useCallback(
    (event: { type: 'SIGN_OUT' } | { type: 'SESSION_ENDED' }) => {
      const running = store.get().running;
      if (running) {
        // A second click while one is under way does nothing; a session ended meanwhile takes it over.
        if (event.type === 'SESSION_ENDED') running.send(event);
        return;
      }
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
            noteEnd: fromPromise(async () => {
              const reason = getSessionSignals().ended;
              const unsent = await db.outbox.count().catch(() => 0);
              if (reason) keepSessionEndNotice({ reason, unsent });
              // What the screens said of this session ("saved on this device, sent when…") no longer holds: the login page says what became of it.
              for (const message of getUiState().messages) removeMessage(message.key);
            }),
            // The server forgets this device's push subscription while the session can still say whose it is: best
            // effort, and never more than a moment's wait (the next user of the device gets no pushes of this one's).
            markInactive: fromPromise(async () => {
              await Promise.all([sendActivityStatus('IN_ACTIVE'), atMost(PUSH_FORGET_WAIT_MS, forgetDevice(browserPushEnv()))]);
            }),
            endSession: fromPromise(() => signOut()),
            goToLogin: fromPromise(async () => {
              await navigate({ to: '/login' });
              // The next sign-in starts with nothing reported against it.
              resetSessionSignals();
            }),
            wipeLocalData: fromPromise(() => deleteUserDb(uid)),
          },
        }),
      );
      actor.start();
      actor.send(event);
      // Subscribed after the first event, so the initial idle snapshot does not read as "over".
      actor.subscribe((snapshot) => {
        // Back to idle (cancelled or failed) or finished: this run is over.
        if (snapshot.status === 'done' || snapshot.matches('idle')) {
          if (store.get().running === actor) store.set({ running: null });
          if (snapshot.status !== 'done') actor.stop();
        }
      });
      store.set({ running: actor });
    },
    [db, navigate],
  );
}
