import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { type PurchaseDraft, type SubmitOutcome, purchaseMachine } from './purchase.machine.ts';

const draft: PurchaseDraft = { values: { fraudType: 'crypto', fraudUrl: 'https://scam.example' }, files: {} };

function start(submit: (input: PurchaseDraft) => Promise<SubmitOutcome>) {
  const sent: PurchaseDraft[] = [];
  const machine = purchaseMachine.provide({
    actors: {
      submitPurchase: fromPromise(({ input }: { input: PurchaseDraft }) => {
        sent.push(input);
        return submit(input);
      }),
    },
  });
  const actor = createActor(machine, { input: {} }).start();
  return { actor, sent };
}

describe('purchase machine', () => {
  it('goes form → terms, and Go back returns to the form with the values kept', () => {
    const { actor } = start(async () => 'sent');
    expect(actor.getSnapshot().value).toBe('form');
    actor.send({ type: 'CONTINUE', ...draft });
    expect(actor.getSnapshot().value).toBe('terms');
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('form');
    expect(actor.getSnapshot().context.values).toEqual(draft.values);
  });

  it('does not submit from the form: the terms come first', () => {
    const { actor, sent } = start(async () => 'sent');
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('form');
    expect(sent).toHaveLength(0);
  });

  it('submits the kept draft and ends in success with the outcome', async () => {
    const { actor, sent } = start(async () => 'queued');
    actor.send({ type: 'CONTINUE', ...draft });
    actor.send({ type: 'BACK' });
    actor.send({ type: 'CONTINUE', values: { ...draft.values, fraudUrl: 'https://other.example' }, files: {} });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('submitting');
    const snapshot = await waitFor(actor, (s) => s.matches('success'));
    expect(snapshot.context.outcome).toBe('queued');
    expect(sent).toEqual([{ values: { fraudType: 'crypto', fraudUrl: 'https://other.example' }, files: {} }]);
    expect(snapshot.status).toBe('done');
  });

  it('ends in failure when the submission throws, keeps the values and can go back or retry', async () => {
    let fail = true;
    const { actor, sent } = start(async () => {
      if (fail) throw new Error('boom');
      return 'sent';
    });
    actor.send({ type: 'CONTINUE', ...draft });
    actor.send({ type: 'SUBMIT' });
    const failed = await waitFor(actor, (s) => s.matches('failure'));
    expect(failed.context.error).toBe('boom');
    expect(failed.context.values).toEqual(draft.values);
    actor.send({ type: 'BACK' });
    expect(actor.getSnapshot().value).toBe('form');
    expect(actor.getSnapshot().context.values).toEqual(draft.values);
    fail = false;
    actor.send({ type: 'CONTINUE', ...draft });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('success'));
    expect(sent).toHaveLength(2);
  });
});
