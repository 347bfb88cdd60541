import { describe, expect, it } from 'vitest';
import type { OutboxCommand } from '../db.ts';
import { MAX_IN_FLIGHT, backoff, createBrake, planSends, targetLane } from './send-plan.ts';

const NOW = 1_000_000;

function command(seq: number, lane: string, over: Partial<OutboxCommand> = {}): OutboxCommand {
  return { seq, commandId: `cmd-${seq}`, kind: 'contact', label: lane, method: 'POST', path: '/contact', status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 0, target: { table: 'contactRequests', id: `row-${seq}` }, ...over };
}

/** The test's lane: the label. */
const byLabel = (c: OutboxCommand) => c.label;
const oldestFirst = (size: number) => ({ size, probing: false });
const seqs = (commands: OutboxCommand[]) => commands.map((c) => c.seq);

describe('planSends', () => {
  it("starts each lane's oldest command, up to the room, in queue order", () => {
    const queue = [command(1, 'a'), command(2, 'a'), command(3, 'b'), command(4, 'c'), command(5, 'b'), command(6, 'd'), command(7, 'e')];
    expect(seqs(planSends(queue, new Map(), byLabel, NOW, oldestFirst(10)).start)).toEqual([1, 3, 4, 6, 7]);
    expect(seqs(planSends(queue, new Map(), byLabel, NOW, oldestFirst(2)).start)).toEqual([1, 3]);
    expect(planSends(queue, new Map(), byLabel, NOW, oldestFirst(0)).start).toEqual([]);
  });

  it('starts nothing of a lane that is on the wire', () => {
    const queue = [command(2, 'a'), command(3, 'b'), command(4, 'a')];
    expect(seqs(planSends(queue, new Map([[1, 'a']]), byLabel, NOW, oldestFirst(4)).start)).toEqual([3]);
    // The command in flight may still be listed as `sending`: it is not started again.
    expect(seqs(planSends([command(1, 'a', { status: 'sending' }), ...queue], new Map([[1, 'a']]), byLabel, NOW, oldestFirst(4)).start)).toEqual([3]);
  });

  it('keeps a lane whose oldest command waits for its back-off waiting, and says when it is due; other lanes go', () => {
    const queue = [command(1, 'a', { nextAttemptAt: NOW + 5000 }), command(2, 'a'), command(3, 'b'), command(4, 'c', { nextAttemptAt: NOW + 2000 })];
    const plan = planSends(queue, new Map(), byLabel, NOW, oldestFirst(4));
    expect(seqs(plan.start)).toEqual([3]);
    expect(plan.nextDueAt).toBe(NOW + 2000);
    expect(planSends([command(1, 'a')], new Map(), byLabel, NOW, oldestFirst(1)).nextDueAt).toBe(Infinity);
  });

  it('probes with the command that failed least, the oldest among equals', () => {
    const queue = [command(1, 'a', { attempts: 3 }), command(2, 'b', { attempts: 1 }), command(3, 'c', { attempts: 1 }), command(4, 'd', { attempts: 2 })];
    expect(seqs(planSends(queue, new Map(), byLabel, NOW, { size: 1, probing: true }).start)).toEqual([2]);
  });

  it("sends a command by default in the lane of the row it writes", () => {
    expect(targetLane(command(1, 'x'))).toBe('contactRequests:row-1');
  });
});

describe('createBrake', () => {
  const random = () => 0.5;

  it('lets MAX_IN_FLIGHT go while answers get through', () => {
    const brake = createBrake(random);
    expect(brake.limit([], NOW)).toEqual({ inFlight: MAX_IN_FLIGHT, probing: false, waitUntil: 0 });
  });

  it('after a failure lets nothing go for a back-off that grows with the failures in a row, then one at a time until an answer gets through', () => {
    const brake = createBrake(random);
    const failed = command(1, 'a', { attempts: 1, nextAttemptAt: NOW + 750 });
    brake.slowDown(NOW, { seq: 1, retryAt: NOW + 750 });
    brake.slowDown(NOW, { seq: 1, retryAt: NOW + 750 });
    const until = NOW + backoff(1, random);
    expect(brake.limit([failed], NOW)).toEqual({ inFlight: 0, probing: true, waitUntil: until });
    expect(brake.limit([failed], until - 1).inFlight).toBe(0);
    expect(brake.limit([failed], until)).toEqual({ inFlight: 1, probing: true, waitUntil: 0 });
    brake.release();
    expect(brake.limit([failed], until)).toEqual({ inFlight: MAX_IN_FLIGHT, probing: false, waitUntil: 0 });
  });

  it("lets go at once when the command that caused it is retried by hand, or is gone; a device's fault has no such command", () => {
    const brake = createBrake(random);
    brake.slowDown(NOW, { seq: 1, retryAt: NOW + 750 });
    expect(brake.limit([command(1, 'a', { nextAttemptAt: NOW + 750 })], NOW).inFlight).toBe(0);
    expect(brake.limit([command(1, 'a', { nextAttemptAt: 0 })], NOW)).toEqual({ inFlight: 1, probing: true, waitUntil: 0 });
    expect(brake.limit([], NOW).inFlight).toBe(1);

    const local = createBrake(random);
    local.slowDown(NOW, null);
    expect(local.limit([], NOW).inFlight).toBe(0);
  });
});
