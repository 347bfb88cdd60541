import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { SecurityStatus } from '../../../domain/security.ts';
import { type GateAnswer, secondFactorGateMachine } from './second-factor-gate.machine.ts';

const status = (patch: Partial<SecurityStatus> = {}): SecurityStatus => ({ required: true, verifiedAt: null, passkeys: [], totp: false, recoveryCodesLeft: 0, ...patch });
const passkey = { id: 'p1', name: 'Laptop', createdAt: '2026-11-28T10:00:00.000Z', lastUsedAt: null };

/** A gate whose server answers, one call after another, what `answers` lists (the last one again when they run out). */
function gate(answers: (GateAnswer | Error)[], { check = true } = {}) {
  const remember = vi.fn();
  const forget = vi.fn();
  let calls = 0;
  const askStatus = vi.fn(async () => {
    const answer = answers[Math.min(calls++, answers.length - 1)];
    if (answer instanceof Error) throw answer;
    return answer;
  });
  const actor = createActor(secondFactorGateMachine.provide({ actions: { remember, forget }, actors: { askStatus: fromPromise(askStatus) } }));
  actor.start();
  // The staff workspace asks first; a client's screens wait for a 403.
  if (check) actor.send({ type: 'CHECK' });
  return { actor, remember, forget, askStatus };
}

const settled = (actor: ReturnType<typeof gate>['actor']) => waitFor(actor, (s) => !s.matches('checking'));

describe('the second-factor gate', () => {
  it('an account without a factor enrols, sees its recovery codes once, then the server lets the session in', async () => {
    const { actor, remember } = gate([{ kind: 'status', status: status() }, { kind: 'status', status: status({ passkeys: [passkey], verifiedAt: '2026-11-28T10:00:00.000Z' }) }]);
    expect((await settled(actor)).value).toBe('enrolling');
    actor.send({ type: 'ENROLLED', recoveryCodes: ['aaaaa-bbbbb', 'ccccc-ddddd'] });
    expect(actor.getSnapshot().value).toBe('showingCodes');
    expect(actor.getSnapshot().context.recoveryCodes).toEqual(['aaaaa-bbbbb', 'ccccc-ddddd']);
    expect(remember).not.toHaveBeenCalled();
    actor.send({ type: 'CODES_SAVED' });
    expect((await settled(actor)).value).toBe('open');
    expect(actor.getSnapshot().context.recoveryCodes).toBeNull();
    expect(remember).toHaveBeenCalledOnce();
  });

  it('an account with a factor verifies; a 403 from a staff call later brings the gate back and forgets the mark', async () => {
    const { actor, forget, askStatus } = gate([
      { kind: 'status', status: status({ totp: true }) },
      { kind: 'status', status: status({ totp: true, verifiedAt: '2026-11-28T10:00:00.000Z' }) },
      { kind: 'status', status: status({ totp: true }) },
    ]);
    expect((await settled(actor)).value).toBe('verifying');
    actor.send({ type: 'VERIFIED' });
    expect((await settled(actor)).value).toBe('open');
    actor.send({ type: 'REQUIRED_AGAIN' });
    expect((await settled(actor)).value).toBe('verifying');
    expect(forget).toHaveBeenCalledOnce();
    expect(askStatus).toHaveBeenCalledTimes(3);
  });

  it('a client (nothing required) passes at once', async () => {
    const { actor } = gate([{ kind: 'status', status: status({ required: false }) }]);
    expect((await settled(actor)).value).toBe('open');
  });

  it("a client's screens open without asking; a 403 SECOND_FACTOR_REQUIRED (an account with a factor) asks, and verification opens them", async () => {
    const { actor, askStatus, remember } = gate([{ kind: 'status', status: status({ totp: true }) }, { kind: 'status', status: status({ totp: true, verifiedAt: '2026-11-28T10:00:00.000Z' }) }], { check: false });
    expect(actor.getSnapshot().value).toBe('unchecked');
    expect(askStatus).not.toHaveBeenCalled();
    actor.send({ type: 'RETRY' });
    expect(actor.getSnapshot().value).toBe('unchecked');
    actor.send({ type: 'REQUIRED_AGAIN' });
    expect((await settled(actor)).value).toBe('verifying');
    expect(remember).not.toHaveBeenCalled();
    actor.send({ type: 'VERIFIED' });
    expect((await settled(actor)).value).toBe('open');
    expect(remember).toHaveBeenCalledOnce();
  });

  it('offline, a session this device saw verify reads its copies; one it did not waits for the connection', async () => {
    const seen = gate([{ kind: 'unreachable', verifiedHere: true }]);
    expect((await settled(seen.actor)).value).toBe('openOffline');
    expect(seen.remember).not.toHaveBeenCalled();

    const unseen = gate([{ kind: 'unreachable', verifiedHere: false }, { kind: 'status', status: status({ passkeys: [passkey] }) }]);
    expect((await settled(unseen.actor)).value).toBe('offline');
    unseen.actor.send({ type: 'RETRY' });
    expect((await settled(unseen.actor)).value).toBe('verifying');
  });

  it('back online, the offline-open gate asks the server again and shows verification if the session is no longer verified', async () => {
    const { actor } = gate([{ kind: 'unreachable', verifiedHere: true }, { kind: 'status', status: status({ totp: true }) }]);
    expect((await settled(actor)).value).toBe('openOffline');
    actor.send({ type: 'RETRY' });
    expect((await settled(actor)).value).toBe('verifying');
  });

  it('a failed question says why and asks again on Retry', async () => {
    const { actor } = gate([new Error('The server answered in a way we did not expect.'), { kind: 'status', status: status({ required: false }) }]);
    const failed = await settled(actor);
    expect(failed.value).toBe('failed');
    expect(failed.context.error).toBe('The server answered in a way we did not expect.');
    actor.send({ type: 'RETRY' });
    expect((await settled(actor)).value).toBe('open');
  });

  it('an enrolment whose answer has no codes (a factor added beside another) asks the server again', async () => {
    const { actor } = gate([{ kind: 'status', status: status() }, { kind: 'status', status: status({ totp: true, verifiedAt: '2026-11-28T10:00:00.000Z' }) }]);
    expect((await settled(actor)).value).toBe('enrolling');
    actor.send({ type: 'ENROLLED' });
    expect((await settled(actor)).value).toBe('open');
  });
});
