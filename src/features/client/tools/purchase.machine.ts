import { assign, fromPromise, setup } from 'xstate';

/** What the form holds: raw input strings per field, and the picked file per file field. */
export interface PurchaseDraft {
  values: Record<string, string>;
  files: Record<string, File | undefined>;
}

/** How the submission ended: sent straight away, or queued on the device while offline. */
export type SubmitOutcome = 'sent' | 'queued';

export interface PurchaseContext extends PurchaseDraft {
  error: string | null;
  outcome: SubmitOutcome | null;
}

export type PurchaseEvent =
  | { type: 'CONTINUE'; values: Record<string, string>; files: Record<string, File | undefined> }
  | { type: 'BACK' }
  | { type: 'SUBMIT' };

/**
 * The purchase flow of one tool: form → terms → submitting → success | failure. The context keeps
 * the draft, so Go back shows the form as it was left. The submission itself is the injected
 * `submitPurchase` actor, which the page provides (queuePurchase) and tests replace.
 */
export const purchaseMachine = setup({
  types: {
    context: {} as PurchaseContext,
    events: {} as PurchaseEvent,
    input: {} as Partial<PurchaseDraft> | undefined,
  },
  actors: {
    submitPurchase: fromPromise<SubmitOutcome, PurchaseDraft>(async () => {
      throw new Error('submitPurchase is provided by the page');
    }),
  },
}).createMachine({
  id: 'purchase',
  context: ({ input }) => ({ values: input?.values ?? {}, files: input?.files ?? {}, error: null, outcome: null }),
  initial: 'form',
  states: {
    form: {
      on: {
        CONTINUE: {
          target: 'terms',
          actions: assign(({ event }) => ({ values: event.values, files: event.files })),
        },
      },
    },
    terms: {
      on: {
        BACK: 'form',
        SUBMIT: 'submitting',
      },
    },
    submitting: {
      invoke: {
        src: 'submitPurchase',
        input: ({ context }) => ({ values: context.values, files: context.files }),
        onDone: { target: 'success', actions: assign({ outcome: ({ event }) => event.output }) },
        onError: {
          target: 'failure',
          actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : String(event.error)) }),
        },
      },
    },
    success: { type: 'final' },
    failure: {
      on: {
        BACK: { target: 'form', actions: assign({ error: null }) },
        SUBMIT: { target: 'submitting', actions: assign({ error: null }) },
      },
    },
  },
});
