import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { passwordResetMachine } from './password-reset.machine.ts';

function start(send: (email: string) => Promise<void>) {
  const actor = createActor(
    passwordResetMachine.provide({ actors: { sendResetEmail: fromPromise<void, { email: string }>(({ input }) => send(input.email)) } }),
  );
  actor.start();
  return actor;
}

describe('password reset machine', () => {
  it('sends the trimmed email and ends in sent', async () => {
    const sent: string[] = [];
    const actor = start(async (email) => {
      sent.push(email);
    });
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'SEND', email: '  lead@demo.test ' });
    expect(actor.getSnapshot().value).toBe('sending');
    await waitFor(actor, (s) => s.matches('sent'));
    expect(sent).toEqual(['lead@demo.test']);
  });

  it('ends in failed with the error, and can try again', async () => {
    let fail = true;
    const actor = start(async () => {
      if (fail) throw new Error('auth/user-not-found');
    });
    actor.send({ type: 'SEND', email: 'nobody@demo.test' });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect((failed.context.error as Error).message).toBe('auth/user-not-found');
    fail = false;
    actor.send({ type: 'SEND', email: 'nobody@demo.test' });
    await waitFor(actor, (s) => s.matches('sent'));
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('returns to idle when the popup is closed', async () => {
    const actor = start(async () => {});
    actor.send({ type: 'SEND', email: 'a@b.c' });
    await waitFor(actor, (s) => s.matches('sent'));
    actor.send({ type: 'RESET' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.email).toBe('');
  });
});
