import { z } from 'zod';
import { apiRequest, readData } from '../api.ts';
import { ApiError, NetworkError } from '../api-errors.ts';
import type { AnswerHandler } from './commands/kind.ts';
import { type CommandKind, type CommandStatus, commandTables, type OutboxCommand, type PortalDb } from '../db.ts';
import { getIdToken } from '../firebase.ts';
import { SECOND_FACTOR_REQUIRED } from '../../../domain/security.ts';
import { noteSessionAnswer, reportSecondFactorRequired } from '../session-signals.ts';
import { wakeChannelName } from './commands/outbox.ts';
import { outboxWords } from './commands/outbox-words.ts';
import { type Brake, MARKED_AHEAD, MAX_IN_FLIGHT, QUEUE_WINDOW, type Room, backoff, createBrake, planSends, targetLane } from './send-plan.ts';

/**
 * The outbox's sender: each command with a fresh ID token and its id as Idempotency-Key (docs/decisions/004), several
 * at once for different lanes while each lane keeps its order (docs/decisions/019-outbox-replay.md; send-plan.ts
 * chooses). Started and stopped by the sync engine (engine.ts).
 */

export interface SenderDeps {
  /** Per kind, what its answer is and does (commandKinds in the app). */
  kinds: Record<CommandKind, AnswerHandler>;
  getToken(force: boolean): Promise<string | null>;
  send(command: OutboxCommand, token: string): Promise<Response>;
  now(): number;
  random(): number;
}

export type SendResult = 'sent' | 'retry' | 'failed' | 'held' | 'idle';

/**
 * What one attempt came to. `busy` is a retry for a reason that is not the command's (no answer, 5xx, 408, 429):
 * the whole sender slows down (send-plan.ts, `createBrake`); `retryAt` is when the command itself may go again.
 */
type Attempt = { result: 'sent'; started: OutboxCommand[] } | { result: 'retry' | 'failed' | 'held' } | { result: 'busy'; retryAt: number };

/**
 * The lane of a command: what its kind says, or the row it writes. A kind this app does not know (stored by another
 * version) gets its target's lane, so the look at the queue does not fail: sending it fails it, and the queue goes on.
 */
export function laneOf(kinds: Partial<SenderDeps['kinds']>, command: OutboxCommand): string {
  return kinds[command.kind]?.lane?.(command) ?? targetLane(command);
}

/**
 * Sends the oldest command that may go now once (the head of a lane whose back-off has passed). Exported for
 * tests of one step; the app's loop (`startSender`) starts several at a time with the same `takeDue` and `attempt`.
 */
export async function sendNext(db: PortalDb, deps: SenderDeps): Promise<SendResult> {
  const { held, start } = await takeDue(db, deps, new Map(), deps.now(), () => ({ size: 1, probing: false }));
  if (held) return 'held';
  const [command] = start;
  if (!command) return (await db.outbox.where('status').anyOf('pending', 'sending').count()) > 0 ? 'retry' : 'idle';
  const { result } = await attempt(db, command, deps, sharedToken(deps.getToken));
  return result === 'busy' ? 'retry' : result;
}

interface Taken {
  /** A command waits for the user to sign in again: nothing goes until then. */
  held: boolean;
  /** The commands just marked `sending`, to start now. */
  start: OutboxCommand[];
  /** When the soonest command waiting for its back-off may go; Infinity when none waits. */
  nextDueAt: number;
}

/**
 * What the loop has marked `sending`, seq → lane: on the wire, or next to go on it. No other command of a lane
 * starts while one of it is here.
 */
type Flying = Map<number, string>;

/** How many more may be marked `sending`, given the head of the queue and how many are (the brake decides: send-plan.ts). */
type RoomFor = (queue: readonly OutboxCommand[], marked: number) => Room;

/**
 * One look at the queue and one write, in one transaction: the heads of the lanes that may go are marked `sending`
 * together (the outbox panel then hides their Discard), at most `room` of them. A Discard can no longer slip between
 * the read and the mark, and the screens' live queries of the outbox refresh once for the lot.
 */
async function takeDue(db: PortalDb, deps: SenderDeps, flying: Flying, now: number, room: RoomFor): Promise<Taken> {
  const looked = performance.now();
  const taken = await reserving(flying, (reserved) => db.transaction('rw', db.outbox, () => lookAndMark(db, deps, flying, reserved, now, room)));
  measure('portal:send:queue', looked);
  return taken;
}

/**
 * Runs a look at the queue that enters what it starts in `flying` (`reserved` lists them): inside the transaction,
 * so no other look, in the loop or in a landing command's transaction, can start them twice. A look whose
 * transaction fails started nothing: its entries are taken out again.
 */
async function reserving<T>(flying: Flying, look: (reserved: number[]) => Promise<T>): Promise<T> {
  const reserved: number[] = [];
  try {
    return await look(reserved);
  } catch (err) {
    for (const seq of reserved) flying.delete(seq);
    throw err;
  }
}

/** The look itself, inside a transaction that holds the outbox; `landing` is a command whose answer that transaction stores. */
async function lookAndMark(db: PortalDb, deps: SenderDeps, flying: Flying, reserved: number[], now: number, room: RoomFor, landing?: number): Promise<Taken> {
  if ((await db.outbox.where('status').equals('held').count()) > 0) return { held: true, start: [], nextDueAt: Infinity };
  const queue = await readQueueHead(db);
  const others = landing === undefined ? flying : new Map([...flying].filter(([seq]) => seq !== landing));
  const plan = planSends(queue, others, (c) => laneOf(deps.kinds, c), now, room(queue, others.size));
  // Entered before the first await that follows: from here on these are in flight for every other look.
  for (const command of plan.start) {
    flying.set(command.seq!, laneOf(deps.kinds, command));
    reserved.push(command.seq!);
  }
  if (plan.start.length > 0) {
    await db.outbox.bulkUpdate(plan.start.map((c) => ({ key: c.seq!, changes: { status: 'sending' satisfies CommandStatus } })));
  }
  return { held: false, ...plan };
}

/**
 * The oldest QUEUE_WINDOW commands waiting to be sent, in queue order: two ranges of the status index (each in seq
 * order), not the whole queue, which may hold a thousand commands. Failed commands wait for the user, not the sender.
 */
async function readQueueHead(db: PortalDb): Promise<OutboxCommand[]> {
  const [pending, sending] = await Promise.all([
    db.outbox.where('status').equals('pending').limit(QUEUE_WINDOW).toArray(),
    db.outbox.where('status').equals('sending').limit(QUEUE_WINDOW).toArray(),
  ]);
  return [...pending, ...sending].sort((a, b) => a.seq! - b.seq!).slice(0, QUEUE_WINDOW);
}

/** What the loop does when a command's answer has come, before it is stored; and in the transaction storing it. */
interface Landing {
  /** The server has done it: its place on the wire is free. */
  answered(): void;
  /** The loop's look at the queue in that transaction (`takeNext`): what it marks `sending`, so a replay pays one transaction a command. */
  thenTake(): Promise<OutboxCommand[]>;
}

const noLanding: Landing = { answered: () => undefined, thenTake: async () => [] };

/** Sends `command` (already marked `sending`) once and stores what came of it. */
async function attempt(db: PortalDb, command: OutboxCommand, deps: SenderDeps, token: SharedToken, landing: Landing = noLanding): Promise<Attempt> {
  const sending = performance.now();
  let response: Response;
  try {
    response = await sendWithFreshToken(command, deps, token);
  } catch (err) {
    if (err instanceof HeldError) return hold(db, command);
    return retryLater(db, command, deps, outboxWords.unreachable, true);
  }
  if (response.status === 401) return hold(db, command);
  // This session has not verified the account's second factor: the gate asks for it (session-signals.ts), the command waits.
  if (await waitsForSecondFactor(response)) return retryLater(db, command, deps, outboxWords.secondFactor, true);
  if (response.status === 507) return retryLater(db, command, deps, outboxWords.storageFull, true);
  if (response.status >= 500 || response.status === 429 || response.status === 408) return retryLater(db, command, deps, outboxWords.serverBusy, true);
  // Its own first attempt still runs on the server: about this command only.
  if (await isStillRunning(response)) return retryLater(db, command, deps, outboxWords.serverBusy, false);
  let data: unknown;
  try {
    data = await readData(response, deps.kinds[command.kind].answer);
  } catch (err) {
    if (err instanceof NetworkError) return retryLater(db, command, deps, outboxWords.unreachable, true);
    const message = err instanceof ApiError ? err.message : 'The server answered in a way we did not expect.';
    await db.outbox.update(command.seq!, { status: 'failed', error: message, attempts: command.attempts + 1 });
    return { result: 'failed' };
  }
  const applying = measure('portal:send:wire', sending);
  landing.answered();
  const started = await applyAnswer(db, command, data, deps, landing.thenTake);
  measure('portal:send:apply', applying);
  return { result: 'sent', started };
}

/**
 * Where a replay's time goes (one look at the queue; per command the token, the request with its answer, storing
 * the answer): performance measures read by bench/offline.ts. Returns the end, the next phase's start.
 */
function measure(name: string, start: number): number {
  const end = performance.now();
  performance.measure(name, { start, end });
  return end;
}

/**
 * The server has done the command: a local error here (storage, a bug in a handler) is not its refusal.
 * The command keeps its key and goes back in the queue, so the resend replays the first answer; marking
 * it failed would offer Retry, which sends a new key and would do it twice. The error goes on to the loop,
 * which reports it.
 */
async function applyAnswer(db: PortalDb, command: OutboxCommand, data: unknown, deps: SenderDeps, thenTake: Landing['thenTake']): Promise<OutboxCommand[]> {
  try {
    return await db.transaction('rw', commandTables(db), async () => {
      await deps.kinds[command.kind].confirm(db, command, data);
      await db.outbox.delete(command.seq!);
      return thenTake();
    });
  } catch (err) {
    await retryLater(db, command, deps, 'Sent, but this device could not save the answer yet.', false);
    throw err;
  }
}

class HeldError extends Error {}

/** The error code of an answer's body, read from a clone so the body stays readable. */
function errorCode(response: Response): Promise<string | undefined> {
  return response
    .clone()
    .json()
    .then((body: { error?: { code?: string } }) => body.error?.code)
    .catch(() => undefined);
}

/** A 409 from the idempotency layer means "the first attempt is still running": its answer will be replayed. Other 409s are final. */
async function isStillRunning(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const code = await errorCode(response);
  return code === 'IDEMPOTENCY_IN_PROGRESS' || code === 'IDEMPOTENCY_RETRY';
}

/** A 403 SECOND_FACTOR_REQUIRED, reported to the gate: whatever transport sent it, the gate hears it. */
async function waitsForSecondFactor(response: Response): Promise<boolean> {
  if (response.status !== 403 || (await errorCode(response)) !== SECOND_FACTOR_REQUIRED) return false;
  reportSecondFactorRequired();
  return true;
}

type SharedToken = ReturnType<typeof sharedToken>;

/**
 * The ID token for the commands in flight. After a 401 the token is refreshed once for all of them: each command
 * refused with the same token waits for that one refresh instead of asking Firebase for its own.
 */
export function sharedToken(getToken: SenderDeps['getToken']) {
  let refresh: { stale: string; fresh: Promise<string | null> } | null = null;
  return {
    current: () => getToken(false),
    refreshAfter(stale: string): Promise<string | null> {
      if (refresh?.stale !== stale) {
        const fresh = getToken(true);
        const mine = { stale, fresh };
        refresh = mine;
        // A refresh that failed (no network) is asked again by the next 401, not handed out forever.
        fresh.catch(() => {
          if (refresh === mine) refresh = null;
        });
      }
      return refresh.fresh;
    },
  };
}

async function sendWithFreshToken(command: OutboxCommand, deps: SenderDeps, tokens: SharedToken): Promise<Response> {
  const asked = performance.now();
  const token = await tokens.current();
  measure('portal:send:token', asked);
  if (!token) throw new HeldError('signed out');
  const first = await deps.send(command, token);
  if (first.status !== 401) return first;
  // A session ended on the server stays ended with a refreshed token: the command is held, never reported sent,
  // and the app signs out (session-signals.ts).
  if (await noteSessionAnswer(first)) return first;
  // One forced refresh: the token may have expired while the command waited.
  const fresh = await tokens.refreshAfter(token);
  if (!fresh) throw new HeldError('signed out');
  return deps.send(command, fresh);
}

/** Back in the queue after a back-off of its own; `slowDown` when the reason is the server's or the connection's, not the command's. */
async function retryLater(db: PortalDb, command: OutboxCommand, deps: SenderDeps, error: string, slowDown: boolean): Promise<Attempt> {
  const retryAt = deps.now() + backoff(command.attempts, deps.random);
  await db.outbox.update(command.seq!, { status: 'pending', attempts: command.attempts + 1, nextAttemptAt: retryAt, error });
  return slowDown ? { result: 'busy', retryAt } : { result: 'retry' };
}

async function hold(db: PortalDb, command: OutboxCommand): Promise<Attempt> {
  await db.outbox.update(command.seq!, { status: 'held', error: 'Please sign in again to send this.' });
  return { result: 'held' };
}

/** One attempt on the wire: JSON, or multipart with the files the command keeps as Blobs. */
export function sendOverNetwork(command: OutboxCommand, token: string): Promise<Response> {
  const headers = { 'idempotency-key': command.commandId };
  if (command.form) {
    const form = new FormData();
    for (const [k, v] of Object.entries(command.form.fields)) form.append(k, v);
    for (const f of command.form.files) form.append(f.field, new File([f.blob], f.name, { type: f.type }));
    return apiRequest(command.path, { method: command.method, form, headers, token });
  }
  return apiRequest(command.path, { method: command.method, json: command.json, headers, token });
}

// ---- the loop: one sender per signed-in engine, woken by triggers ----

/** How long the loop waits when there is nothing to send (or the queue is held) before it looks again. */
export const IDLE_MS = 30_000;

/** Where a non-network error of the sender is kept for the UI to show (`db.meta`), until a command is sent again. */
export const SENDER_ERROR_KEY = 'senderError';

export interface SenderError {
  message: string;
  /** When it happened (ms since the epoch). */
  at: number;
}

/** The part of Web Locks the sender uses: `navigator.locks` fits it, and tests pass their own. */
export interface OneAtATime {
  request(name: string, options: { signal: AbortSignal }, run: () => Promise<void>): Promise<unknown>;
}

export interface SenderLoopDeps extends SenderDeps {
  /** Calls `fire` after `ms` and returns the cancel; injected so a test decides when time passes. */
  setTimer(fire: () => void, ms: number): () => void;
  /** One sender per user across tabs, where the browser has Web Locks. */
  locks: OneAtATime | null;
}

export interface Sender {
  /** Makes the loop read the queue again: at once if it waits, or right after the look it is taking. */
  wake(): void;
  /** Settles once the loop has stopped: the signal aborted, or the replica was closed. */
  done: Promise<void>;
}


/** The browser's clock, network, token and locks, with what each kind's answer does. */
export function browserSenderDeps(kinds: Record<CommandKind, AnswerHandler>): SenderLoopDeps {
  return {
    kinds,
    getToken: (force) => getIdToken(force),
    send: sendOverNetwork,
    now: Date.now,
    random: Math.random,
    setTimer: (fire, ms) => {
      const timer = setTimeout(fire, ms);
      return () => clearTimeout(timer);
    },
    // Not every browser (nor the test DOM) has Web Locks.
    locks: navigator.locks ?? null,
  };
}

/**
 * Starts a sender on `db` that runs until `signal` aborts. Across tabs of the same user only one sends at a
 * time (a Web Lock), so each lane's order holds and no command goes out twice in parallel; within a page, `after` (the
 * sender before it, on a restart) must have stopped first, for browsers without Web Locks. It listens on the
 * outbox's wake channel, so an enqueue in this page or another tab wakes it.
 */
export function startSender(db: PortalDb, deps: SenderLoopDeps, signal: AbortSignal, after: Promise<unknown> = Promise.resolve()): Sender {
  const alarm = createAlarm(deps.setTimer);
  const wakeChannel = listenForWakes(db.uid, alarm.ring);
  const done = after
    .catch(() => undefined)
    .then(() => oneTabAtATime(db, deps.locks, signal, () => loop(db, deps, alarm, signal)))
    .finally(() => wakeChannel?.close());
  return { wake: alarm.ring, done };
}

function listenForWakes(uid: string, onWake: () => void): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  const channel = new BroadcastChannel(wakeChannelName(uid));
  channel.onmessage = onWake;
  return channel;
}

async function oneTabAtATime(db: PortalDb, locks: OneAtATime | null, signal: AbortSignal, run: () => Promise<void>): Promise<void> {
  if (!locks) return run();
  try {
    await locks.request(`outbox-${db.uid}`, { signal }, run);
  } catch (err) {
    if (!signal.aborted) throw err; // an aborted wait for the lock is a normal stop
  }
}

type Alarm = ReturnType<typeof createAlarm>;

/**
 * The loop's wake-up. A ring is remembered until the loop next reads the queue, so one that comes while
 * it sends or works out how long to wait makes its next sleep return at once instead of being lost.
 */
function createAlarm(setTimer: SenderLoopDeps['setTimer']) {
  let rung = false;
  let stopSleeping: (() => void) | null = null;
  return {
    ring(): void {
      rung = true;
      stopSleeping?.();
    },
    /** Called just before the loop reads the queue: that read answers every ring so far. */
    reset(): void {
      rung = false;
    },
    sleep(ms: number, signal: AbortSignal): Promise<void> {
      if (rung || signal.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        let cancelTimer = () => {};
        const done = () => {
          cancelTimer();
          stopSleeping = null;
          signal.removeEventListener('abort', done);
          resolve();
        };
        stopSleeping = done;
        signal.addEventListener('abort', done);
        cancelTimer = setTimer(done, ms);
      });
    },
  };
}

async function loop(db: PortalDb, deps: SenderLoopDeps, alarm: Alarm, signal: AbortSignal): Promise<void> {
  const flying: Flying = new Map();
  /** Marked `sending` and not on the wire yet, in queue order. */
  const ready: OutboxCommand[] = [];
  /** The commands on the wire. */
  const wire = new Set<number>();
  /** Each flight's settling, awaited on stop. */
  const settling = new Set<Promise<void>>();
  const brake = createBrake(deps.random);
  const token = sharedToken(deps.getToken);
  const reports = senderReports(db, signal, deps.now);
  let errorsInARow = 0;
  while (!signal.aborted && !db.hasBeenClosed()) {
    alarm.reset();
    let pause: number;
    try {
      const now = deps.now();
      let brakeUntil = 0;
      const taken = await takeDue(db, deps, flying, now, brakeRoom(brake, now, (until) => (brakeUntil = until)));
      ready.push(...taken.start);
      launch();
      const wakeAt = taken.held ? Infinity : brakeUntil > now ? brakeUntil : taken.nextDueAt;
      pause = Math.max(50, Math.min(wakeAt, now + IDLE_MS) - deps.now());
      errorsInARow = 0;
    } catch (err) {
      // A sign-out closes the replica under a running step: nothing went wrong then.
      if (signal.aborted || db.hasBeenClosed()) break;
      await reports.error(err);
      // Backs off so a lasting fault does not spin; a wake (a new command) still tries again at once.
      pause = backoff(errorsInARow++, deps.random);
    }
    // The commands that land start the next ones themselves; the last to land rings the alarm, and the loop looks
    // again and works out when the next command is due.
    await alarm.sleep(pause, signal);
  }
  // What is on the wire is seen through, so its answer is stored (or its command set back) before the stop settles.
  while (settling.size > 0) await Promise.all(settling);
  await setBackReady();

  /** Puts what is marked ahead on the wire, as far as there is room. */
  function launch(): void {
    while (ready.length > 0 && wire.size < MAX_IN_FLIGHT && !signal.aborted) fly(ready.shift()!);
  }

  /** Sends `command` (entered in `flying` by the look that marked it), then starts what its landing marked. */
  function fly(command: OutboxCommand): void {
    const seq = command.seq!;
    wire.add(seq);
    const settled = reserving(flying, (reserved) =>
      attempt(db, command, deps, token, {
        answered() {
          wire.delete(seq);
          brake.release();
          launch();
        },
        thenTake: () => takeNext(seq, reserved),
      }),
    )
      .then(async (done): Promise<OutboxCommand[]> => {
        if (done.result === 'busy') brake.slowDown(deps.now(), { seq, retryAt: done.retryAt });
        else if (done.result !== 'held') brake.release();
        if (done.result === 'busy' || done.result === 'held') await setBackReady();
        if (done.result !== 'sent') return [];
        await reports.sent();
        return done.started;
      })
      .catch(async (err: unknown): Promise<OutboxCommand[]> => {
        if (!signal.aborted && !db.hasBeenClosed()) {
          brake.slowDown(deps.now(), null);
          await setBackReady();
          await reports.error(err);
        }
        return [];
      })
      .then((started) => {
        wire.delete(seq);
        flying.delete(seq);
        settling.delete(settled);
        ready.push(...started);
        launch();
        // Nothing left that will land and look again: the loop works out what comes next.
        if (wire.size === 0) alarm.ring();
      });
    settling.add(settled);
  }

  /**
   * The look at the queue in the transaction that stores a landing command's answer: its slot and lane are free for
   * the next. What it marks is in `reserved` until that transaction commits. Nothing starts once the loop stops.
   */
  async function takeNext(landing: number, reserved: number[]): Promise<OutboxCommand[]> {
    if (signal.aborted) return [];
    const now = deps.now();
    return (await lookAndMark(db, deps, flying, reserved, now, brakeRoom(brake, now), landing)).start;
  }

  /**
   * The brake is on, the queue is held or the loop stops: what was marked ahead goes back to `pending`, so the outbox
   * does not show it as sending while it waits, and a later look starts it again.
   */
  async function setBackReady(): Promise<void> {
    const back = ready.splice(0);
    if (back.length === 0) return;
    try {
      await db.outbox.bulkUpdate(back.map((c) => ({ key: c.seq!, changes: { status: 'pending' satisfies CommandStatus } })));
    } catch {
      // A closed replica: left `sending`, which the next start sends as it would a command cut off on the wire.
    } finally {
      for (const command of back) flying.delete(command.seq!);
    }
  }
}

/**
 * The room the brake leaves (send-plan.ts): at full speed, its commands on the wire and as many marked ahead;
 * while it probes, the one it allows. `seeWait` is told until when nothing may start.
 */
function brakeRoom(brake: Brake, now: number, seeWait: (until: number) => void = () => undefined): RoomFor {
  return (queue, marked) => {
    const limit = brake.limit(queue, now);
    seeWait(limit.waitUntil);
    return { size: limit.inFlight + (limit.probing ? 0 : MARKED_AHEAD) - marked, probing: limit.probing };
  };
}

/**
 * The sender's reports for the sync health: a non-network error is kept in `meta` until a command is sent again.
 * A report from an earlier session may still be stored: the first send clears it.
 */
function senderReports(db: PortalDb, signal: AbortSignal, now: () => number) {
  let shown = true;
  return {
    async error(err: unknown): Promise<void> {
      if (err instanceof NetworkError) return;
      await reportSenderError(db, err, now());
      shown = true;
    },
    async sent(): Promise<void> {
      if (!shown) return;
      shown = false;
      await db.meta.delete(SENDER_ERROR_KEY).catch(async (err: unknown) => {
        shown = true;
        if (!signal.aborted && !db.hasBeenClosed()) await reportSenderError(db, err, now());
      });
    },
  };
}

async function reportSenderError(db: PortalDb, err: unknown, at: number): Promise<void> {
  console.error('outbox sender error', err);
  const report: SenderError = { message: err instanceof Error ? err.message : String(err), at };
  // A replica that cannot store it either: the console has it, and the loop tries again.
  await db.meta.put({ key: SENDER_ERROR_KEY, value: report }).catch(() => undefined);
}

const SenderErrorShape = z.object({ message: z.string(), at: z.number() });

/** The sender's last non-network error, for the UI; null once a command has been sent since. */
export async function readSenderError(db: PortalDb): Promise<SenderError | null> {
  const parsed = SenderErrorShape.safeParse((await db.meta.get(SENDER_ERROR_KEY))?.value);
  return parsed.success ? parsed.data : null;
}

/**
 * Retry from the sync health: with nothing left to send, no send will come to clear the report, and the
 * error it describes cannot stop anything any more. Otherwise the woken sender clears it once a command goes.
 */
export async function clearSenderErrorIfIdle(db: PortalDb): Promise<void> {
  const waiting = await db.outbox.where('status').anyOf('pending', 'sending').count();
  if (waiting === 0) await db.meta.delete(SENDER_ERROR_KEY);
}
