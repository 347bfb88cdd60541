import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { signOutMachine } from './sign-out.machine.ts';

/** Runs the machine with recording stubs; `fail` makes one step reject. */
function run(opts: { unsent?: number; fail?: string } = {}) {
  const log: string[] = [];
  const step = (name: string) =>
    fromPromise<void>(async () => {
      log.push(name);
      if (opts.fail === name) throw new Error(`${name} failed`);
    });
  const actor = createActor(
    signOutMachine.provide({
      actions: {
        loaderOn: () => void log.push('loader on'),
        loaderOff: () => void log.push('loader off'),
        logError: (_, params) => void log.push(`logged ${params.step}`),
        reportFailure: () => void log.push('reported'),
      },
      actors: {
        countUnsent: fromPromise<number>(async () => {
          log.push('count');
          return opts.unsent ?? 0;
        }),
        noteEnd: step('note end'),
        markInactive: step('IN_ACTIVE'),
        endSession: step('sign out'),
        goToLogin: step('/login'),
        wipeLocalData: step('wipe'),
      },
    }),
  );
  actor.start();
  return { actor, log };
}

describe('sign-out machine', () => {
  it("follows the spec's order: loader on, IN_ACTIVE, sign out, /login, loader off, then the wipe", async () => {
    const { actor, log } = run();
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(log).toEqual(['count', 'loader on', 'IN_ACTIVE', 'sign out', '/login', 'loader off', 'wipe']);
  });

  it('only logs a failed IN_ACTIVE and carries on', async () => {
    const { actor, log } = run({ fail: 'IN_ACTIVE' });
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(log).toEqual(['count', 'loader on', 'IN_ACTIVE', 'logged IN_ACTIVE', 'sign out', '/login', 'loader off', 'wipe']);
  });

  it('asks first when the outbox holds unsent commands; Cancel keeps everything', async () => {
    const { actor, log } = run({ unsent: 2 });
    actor.send({ type: 'SIGN_OUT' });
    const asking = await waitFor(actor, (s) => s.matches('confirming'));
    expect(asking.context.unsent).toBe(2);
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(log).toEqual(['count']);
  });

  it('signs out after confirmation, in the same order', async () => {
    const { actor, log } = run({ unsent: 1 });
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(log).toEqual(['count', 'loader on', 'IN_ACTIVE', 'sign out', '/login', 'loader off', 'wipe']);
  });

  it('turns the loader off and stays signed in (nothing wiped) when the session cannot be ended', async () => {
    const { actor, log } = run({ fail: 'sign out' });
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (s) => s.matches('idle') && log.includes('loader off'));
    expect(log).toEqual(['count', 'loader on', 'IN_ACTIVE', 'sign out', 'reported', 'loader off']);
  });

  it('a session the server ended: noted for the login page, then signed out and wiped, with nothing to confirm even with unsent commands', async () => {
    const { actor, log } = run({ unsent: 3 });
    actor.send({ type: 'SESSION_ENDED' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(log).toEqual(['note end', 'loader on', 'sign out', '/login', 'loader off', 'wipe']);
  });

  it('a session ended while the user was asked about unsent commands ends without the answer', async () => {
    const { actor, log } = run({ unsent: 1 });
    actor.send({ type: 'SIGN_OUT' });
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'SESSION_ENDED' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(log).toEqual(['count', 'note end', 'loader on', 'sign out', '/login', 'loader off', 'wipe']);
  });
});
