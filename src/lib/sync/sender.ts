import { z } from 'zod';
import { ApiError, NetworkError, apiRequest, readData } from '../api.ts';
import type { AnswerHandler } from '../command-kind.ts';
import { type CommandKind, type CommandStatus, commandTables, type OutboxCommand, type PortalDb } from '../db.ts';
import { getIdToken } from '../firebase.ts';
import { wakeChannelName } from '../outbox.ts';
import { outboxWords } from '../outbox-words.ts';

/**
 * The outbox's sender: FIFO, one command at a time, a fresh ID token per attempt, the command id as
 * Idempotency-Key (docs/decisions/004). Started and stopped by the sync engine (engine.ts).
 */

export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 60_000;

/** Exponential back-off with full jitter (AWS architecture blog), capped at a minute. */
export function backoff(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(attempts, 10));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface SenderDeps {
  /** Per kind, what its answer is and does (commandKinds in the app). */
  kinds: Record<CommandKind, AnswerHandler>;
  getToken(force: boolean): Promise<string | null>;
  send(command: OutboxCommand, token: string): Promise<Response>;
  now(): number;
  random(): number;
}

export type SendResult = 'sent' | 'retry' | 'failed' | 'held' | 'idle';

/** Sends the oldest sendable command once. Exported for tests; the app runs it in `startSender`'s loop. */
export async function sendNext(db: PortalDb, deps: SenderDeps): Promise<SendResult> {
  const looked = performance.now();
  if ((await db.outbox.where('status').equals('held').count()) > 0) return 'held';
  const command = await db.outbox
    .orderBy('seq')
    .filter((c) => c.status === 'pending' || c.status === 'sending')
    .first();
  if (!command) return 'idle';
  if (command.nextAttemptAt > deps.now()) return 'retry';
  await db.outbox.update(command.seq!, { status: 'sending' satisfies CommandStatus });
  const sending = measure('portal:send:queue', looked);

  let response: Response;
  try {
    response = await sendWithFreshToken(command, deps);
  } catch (err) {
    if (err instanceof HeldError) return hold(db, command);
    return retryLater(db, command, deps, outboxWords.unreachable);
  }
  if (response.status === 401) return hold(db, command);
  if (response.status >= 500 || response.status === 429 || response.status === 408 || (await isStillRunning(response))) {
    return retryLater(db, command, deps, outboxWords.serverBusy);
  }
  let data: unknown;
  try {
    data = await readData(response, deps.kinds[command.kind].answer);
  } catch (err) {
    if (err instanceof NetworkError) return retryLater(db, command, deps, outboxWords.unreachable);
    const message = err instanceof ApiError ? err.message : 'The server answered in a way we did not expect.';
    await db.outbox.update(command.seq!, { status: 'failed', error: message, attempts: command.attempts + 1 });
    return 'failed';
  }
  const applying = measure('portal:send:wire', sending);
  await applyAnswer(db, command, data, deps);
  measure('portal:send:apply', applying);
  return 'sent';
}

/**
 * Where a replay's time goes, command by command (reading and marking the queue, the token and the request,
 * storing the answer): read by bench/offline.ts beside the whole replay. Returns the end, the next phase's start.
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
async function applyAnswer(db: PortalDb, command: OutboxCommand, data: unknown, deps: SenderDeps): Promise<void> {
  try {
    await db.transaction('rw', commandTables(db), async () => {
      await deps.kinds[command.kind].confirm(db, command, data);
      await db.outbox.delete(command.seq!);
    });
  } catch (err) {
    await retryLater(db, command, deps, 'Sent, but this device could not save the answer yet.');
    throw err;
  }
}

class HeldError extends Error {}

/** A 409 from the idempotency layer means "the first attempt is still running": its answer will be replayed. Other 409s are final. */
async function isStillRunning(response: Response): Promise<boolean> {
  if (response.status !== 409) return false;
  const code = await response
    .clone()
    .json()
    .then((body: { error?: { code?: string } }) => body.error?.code)
    .catch(() => undefined);
  return code === 'IDEMPOTENCY_IN_PROGRESS' || code === 'IDEMPOTENCY_RETRY';
}

async function sendWithFreshToken(command: OutboxCommand, deps: SenderDeps): Promise<Response> {
  const asked = performance.now();
  const token = await deps.getToken(false);
  measure('portal:send:token', asked);
  if (!token) throw new HeldError('signed out');
  const first = await deps.send(command, token);
  if (first.status !== 401) return first;
  // One forced refresh: the token may have expired while the command waited.
  const fresh = await deps.getToken(true);
  if (!fresh) throw new HeldError('signed out');
  return deps.send(command, fresh);
}

async function retryLater(db: PortalDb, command: OutboxCommand, deps: SenderDeps, error: string): Promise<SendResult> {
  await db.outbox.update(command.seq!, {
    status: 'pending',
    attempts: command.attempts + 1,
    nextAttemptAt: deps.now() + backoff(command.attempts, deps.random),
    error,
  });
  return 'retry';
}

async function hold(db: PortalDb, command: OutboxCommand): Promise<SendResult> {
  await db.outbox.update(command.seq!, { status: 'held', error: 'Please sign in again to send this.' });
  return 'held';
}

/** One attempt on the wire: JSON, or multipart with the files the command keeps as Blobs. */
export function sendOverNetwork(command: OutboxCommand, token: string): Promise<Response> {
  const headers = { 'idempotency-key': command.id };
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
  /** Makes the loop read the queue again: at once if it waits, or right after the step it is in. */
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
 * time (a Web Lock), so FIFO holds and no command goes out twice in parallel; within a page, `after` (the
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
  let errorsInARow = 0;
  // A report from an earlier session may still be stored: the first send clears it.
  let errorShown = true;
  while (!signal.aborted && !db.hasBeenClosed()) {
    alarm.reset();
    let pause: number;
    try {
      const result = await sendNext(db, deps);
      if (result === 'sent' && errorShown) {
        await db.meta.delete(SENDER_ERROR_KEY);
        errorShown = false;
      }
      pause = await pauseAfter(db, result, deps.now());
      errorsInARow = 0;
    } catch (err) {
      // A sign-out closes the replica under a running step: nothing went wrong then.
      if (signal.aborted || db.hasBeenClosed()) break;
      if (!(err instanceof NetworkError)) {
        await reportSenderError(db, err, deps.now());
        errorShown = true;
      }
      // Backs off so a lasting fault does not spin; a wake (a new command) still tries again at once.
      pause = backoff(errorsInARow++, deps.random);
    }
    if (pause > 0) await alarm.sleep(pause, signal);
  }
}

/** How long to wait after a step: 0 goes straight on to the next command. */
async function pauseAfter(db: PortalDb, result: SendResult, now: number): Promise<number> {
  if (result === 'sent' || result === 'failed') return 0;
  return result === 'retry' ? nextDueIn(db, now) : IDLE_MS;
}

async function nextDueIn(db: PortalDb, now: number): Promise<number> {
  const due = await db.outbox.where('status').equals('pending').toArray();
  const soonest = Math.min(...due.map((c) => c.nextAttemptAt), now + IDLE_MS);
  return Math.max(50, soonest - now);
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
