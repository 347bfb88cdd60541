import type { OutboxCommand } from '../db.ts';

/**
 * Which queued commands the sender starts, and when it holds back (docs/decisions/019-outbox-replay.md). Pure: the
 * queue, what is on the wire and the clock come in, a choice comes out; sender.ts reads and writes the outbox.
 *
 * Commands of one lane reach the server one after the other, in the order they were queued; commands of different
 * lanes do not wait for each other, so several are in flight at once and a replay costs about what a live send does.
 */

/** Commands on the wire at once while the server answers (a browser opens 6 connections to a host: the pokes' stream and a pull keep theirs). */
export const MAX_IN_FLIGHT = 4;

/**
 * Commands marked `sending` beyond those on the wire, at full speed: when one lands, the next goes on the wire at once,
 * while its answer is still being stored. The wire never waits for the device's own writes.
 */
export const MARKED_AHEAD = MAX_IN_FLIGHT;

/**
 * How many of the oldest sendable commands one look at the queue reads. The queue's head is all that can start
 * (at most MAX_IN_FLIGHT, one per lane); a wider window only finds more lanes behind ones waiting for a back-off.
 */
export const QUEUE_WINDOW = 32;

export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 60_000;

/** Exponential back-off with full jitter (AWS architecture blog), capped at a minute. */
export function backoff(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(attempts, 10));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The lane a command is sent in: by default the row it writes, so that two commands on one row keep their order. */
export function targetLane(command: Pick<OutboxCommand, 'target'>): string {
  return `${command.target.table}:${command.target.id}`;
}

export interface SendPlan {
  /** The commands to start now. */
  start: OutboxCommand[];
  /** When the soonest lane waiting for a back-off may go (ms since the epoch); Infinity when none waits. */
  nextDueAt: number;
}

/** How many may start, and which first: oldest first, or while probing the command that failed least. */
export interface Room {
  size: number;
  probing: boolean;
}

/**
 * The heads of the lanes: for each lane, its oldest command in `queue` (which is in queue order), unless one of the
 * lane is on the wire (`flying`: seq → lane). A head whose back-off has not passed keeps its lane waiting, since the
 * commands behind it must not overtake it. At most `room.size` start: the oldest, or when the brake probes the server
 * with one command, the one that failed least (the least likely to be the trouble: one command the server keeps
 * failing must not be the only one ever tried).
 */
export function planSends(queue: readonly OutboxCommand[], flying: ReadonlyMap<number, string>, laneOf: (command: OutboxCommand) => string, now: number, room: Room): SendPlan {
  const taken = new Set(flying.values());
  const due: OutboxCommand[] = [];
  let nextDueAt = Infinity;
  for (const command of queue) {
    const lane = laneOf(command);
    if (taken.has(lane)) continue;
    taken.add(lane);
    if (command.nextAttemptAt > now) nextDueAt = Math.min(nextDueAt, command.nextAttemptAt);
    else due.push(command);
  }
  // A stable sort: among equals the queue's order stays.
  const order = room.probing ? [...due].sort((a, b) => a.attempts - b.attempts) : due;
  return { start: order.slice(0, Math.max(0, room.size)), nextDueAt };
}

export type Brake = ReturnType<typeof createBrake>;

/**
 * Holds the sender back when the trouble is the server's or the connection's rather than a command's (no answer,
 * 5xx, 408, 429, or a fault of this device): sending other commands then would only meet the same answer, so
 * nothing new starts until a back-off has passed, and then one command at a time until one gets through. A
 * healthy server gets MAX_IN_FLIGHT. Offline or throttled, the sender thus behaves as it did with one command at
 * a time, and one command the server keeps refusing with a 5xx slows the others without stopping them.
 */
export function createBrake(random: () => number) {
  let failuresInARow = 0;
  let until = 0;
  /** The command whose failure put the brake on, and when the sender set it to go again. */
  let culprit: { seq: number; retryAt: number } | null = null;
  return {
    /**
     * An attempt failed in a way that is not about its command; `failed` is that command and when the sender set it
     * to go again (none for a fault of this device, which is not a command's).
     */
    slowDown(now: number, failed: { seq: number; retryAt: number } | null): void {
      until = Math.max(until, now + backoff(failuresInARow++, random));
      culprit = failed;
    },
    /** An answer got through: full speed again. */
    release(): void {
      failuresInARow = 0;
      until = 0;
      culprit = null;
    },
    /**
     * How many commands may be in flight now, and until when none may start. The wait ends early when the
     * command that caused it was moved forward (the user pressed its Retry) or is no longer waiting.
     */
    limit(queue: readonly OutboxCommand[], now: number): { inFlight: number; probing: boolean; waitUntil: number } {
      const stored = culprit ? queue.find((c) => c.seq === culprit?.seq) : undefined;
      const retriedByHand = culprit !== null && (stored === undefined || stored.nextAttemptAt < culprit.retryAt);
      if (now < until && !retriedByHand) return { inFlight: 0, probing: true, waitUntil: until };
      const probing = failuresInARow > 0;
      return { inFlight: probing ? 1 : MAX_IN_FLIGHT, probing, waitUntil: 0 };
    },
  };
}
