import { assign, fromPromise, setup } from 'xstate';

/**
 * Sign-out in the spec's order (section 4): loader on, IN_ACTIVE, session ended, /login, loader off.
 * Unsent outbox commands would be lost with the device's copy, so the user confirms first; the
 * local database is wiped last, once the shell reading it is gone.
 * A session the server ended (SESSION_ENDED: signed out from another device, or the account disabled) goes
 * straight to ending it: nothing can be sent any more, so there is nothing to confirm and no presence to report;
 * the device's copy and outbox are wiped as on any sign-out, and the login page says why (`noteEnd` first).
 * Every side effect is an injected actor or action, so tests swap them with `.provide()`.
 */
export const signOutMachine = setup({
  types: {
    context: {} as { unsent: number },
    events: {} as { type: 'SIGN_OUT' } | { type: 'CONFIRM' } | { type: 'CANCEL' } | { type: 'SESSION_ENDED' },
  },
  actions: {
    loaderOn: () => {},
    loaderOff: () => {},
    logError: (_, _params: { step: string; error: unknown }) => {},
    reportFailure: (_, _params: { error: unknown }) => {},
  },
  actors: {
    countUnsent: fromPromise<number>(async () => 0),
    /** Keeps, for the login page, why the session ended and how many commands the device could not send. */
    noteEnd: fromPromise<void>(async () => {}),
    markInactive: fromPromise<void>(async () => {}),
    endSession: fromPromise<void>(async () => {}),
    goToLogin: fromPromise<void>(async () => {}),
    wipeLocalData: fromPromise<void>(async () => {}),
  },
}).createMachine({
  id: 'signOut',
  context: { unsent: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: { SIGN_OUT: 'checking', SESSION_ENDED: 'notingEnd' },
    },
    notingEnd: {
      invoke: {
        src: 'noteEnd',
        onDone: '#signOut.signingOut.endingSession',
        onError: { target: '#signOut.signingOut.endingSession', actions: { type: 'logError', params: ({ event }) => ({ step: 'note the end', error: event.error }) } },
      },
    },
    checking: {
      on: { SESSION_ENDED: 'notingEnd' },
      invoke: {
        src: 'countUnsent',
        onDone: [
          { guard: ({ event }) => event.output > 0, target: 'confirming', actions: assign({ unsent: ({ event }) => event.output }) },
          { target: 'signingOut' },
        ],
        // Not knowing the outbox is no reason to keep someone signed in against their will.
        onError: { target: 'signingOut', actions: { type: 'logError', params: ({ event }) => ({ step: 'count unsent', error: event.error }) } },
      },
    },
    confirming: {
      on: {
        SESSION_ENDED: 'notingEnd',
        CONFIRM: 'signingOut',
        CANCEL: { target: 'idle', actions: assign({ unsent: 0 }) },
      },
    },
    signingOut: {
      entry: 'loaderOn',
      initial: 'markingInactive',
      states: {
        markingInactive: {
          invoke: {
            src: 'markInactive',
            onDone: 'endingSession',
            // Spec: presence errors are only logged.
            onError: { target: 'endingSession', actions: { type: 'logError', params: ({ event }) => ({ step: 'IN_ACTIVE', error: event.error }) } },
          },
        },
        endingSession: {
          invoke: {
            src: 'endSession',
            onDone: 'navigating',
            onError: { target: '#signOut.failed', actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        navigating: {
          invoke: {
            src: 'goToLogin',
            onDone: '#signOut.wiping',
            onError: { target: '#signOut.wiping', actions: { type: 'logError', params: ({ event }) => ({ step: 'navigate', error: event.error }) } },
          },
        },
      },
    },
    // After the loader is off: a wipe blocked by another tab must not leave the overlay up.
    wiping: {
      entry: 'loaderOff',
      invoke: {
        src: 'wipeLocalData',
        onDone: 'done',
        onError: { target: 'done', actions: { type: 'logError', params: ({ event }) => ({ step: 'wipe', error: event.error }) } },
      },
    },
    failed: {
      entry: 'loaderOff',
      always: 'idle',
    },
    done: { type: 'final' },
  },
});
