import { assign, fromPromise, setup } from 'xstate';

/**
 * The login screen's Reset Your Password popup: idle → sending → sent | failed.
 * `sendResetEmail` is injected (Firebase in the app, a stub in tests).
 */
export const passwordResetMachine = setup({
  types: {
    context: {} as { email: string; error: unknown },
    events: {} as { type: 'SEND'; email: string } | { type: 'RESET' },
  },
  actors: {
    sendResetEmail: fromPromise<void, { email: string }>(async () => {}),
  },
}).createMachine({
  id: 'passwordReset',
  context: { email: '', error: null },
  initial: 'idle',
  states: {
    idle: {
      on: { SEND: { target: 'sending', actions: assign({ email: ({ event }) => event.email.trim(), error: null }) } },
    },
    sending: {
      invoke: {
        src: 'sendResetEmail',
        input: ({ context }) => ({ email: context.email }),
        onDone: 'sent',
        onError: { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
      },
    },
    sent: {
      on: { RESET: { target: 'idle', actions: assign({ email: '', error: null }) } },
    },
    failed: {
      on: {
        SEND: { target: 'sending', actions: assign({ email: ({ event }) => event.email.trim(), error: null }) },
        RESET: { target: 'idle', actions: assign({ email: '', error: null }) },
      },
    },
  },
});
