import type { z } from 'zod';
import { ApiError, NetworkError, apiRequest, readData } from './api.ts';
import { type CommandStatus, commandTables, type OutboxCommand, type PortalDb } from './db.ts';
import { getIdToken } from './firebase.ts';
import { requestBackgroundSync } from './pwa.ts';

/**
 * The outbox: every write a user makes (purchase, refund, contact message, initial form) is a
 * command stored on the device in the same transaction as its optimistic row, then sent by one
 * sender, FIFO, one at a time, with a fresh ID token per attempt and the command id as
 * Idempotency-Key. A lost answer therefore never duplicates, and nothing is ever dropped silently.
 */

export interface CommandHandler {
  /** Validates the server's `data` of a successful answer. */
  schema: z.ZodType;
  /** Replaces the optimistic row with the server's, inside the transaction that removes the command. */
  apply(db: PortalDb, command: OutboxCommand, data: unknown): Promise<void>;
}

export type Enqueue = Omit<OutboxCommand, 'seq' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt' | 'error'>;

/** Writes the command and its optimistic row atomically: both exist, or neither. */
export async function enqueue(db: PortalDb, command: Enqueue, writeOptimistic: () => Promise<unknown>): Promise<void> {
  await db.transaction('rw', commandTables(db), async () => {
    await writeOptimistic();
    await db.outbox.add({ ...command, status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: Date.now() });
  });
  wake();
  void requestBackgroundSync();
}

// ---- the sender ----

export const BASE_DELAY_MS = 1000;
export const MAX_DELAY_MS = 60_000;

/** Exponential back-off with full jitter (AWS architecture blog), capped at a minute. */
export function backoff(attempts: number, random: () => number = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.min(attempts, 10));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export interface SenderDeps {
  handlers: Record<OutboxCommand['kind'], CommandHandler>;
  getToken(force: boolean): Promise<string | null>;
  send(command: OutboxCommand, token: string): Promise<Response>;
  now(): number;
  random(): number;
}

export type SendResult = 'sent' | 'retry' | 'failed' | 'held' | 'idle';

/** Sends the oldest sendable command once. Exported for tests; the app uses `runSender`. */
export async function sendNext(db: PortalDb, deps: SenderDeps): Promise<SendResult> {
  if ((await db.outbox.where('status').equals('held').count()) > 0) return 'held';
  const command = await db.outbox
    .orderBy('seq')
    .filter((c) => c.status === 'pending' || c.status === 'sending')
    .first();
  if (!command) return 'idle';
  if (command.nextAttemptAt > deps.now()) return 'retry';
  await db.outbox.update(command.seq!, { status: 'sending' satisfies CommandStatus });

  let response: Response;
  try {
    response = await sendWithFreshToken(command, deps);
  } catch (err) {
    if (err instanceof HeldError) return hold(db, command);
    return retryLater(db, command, deps, err instanceof Error ? err.message : 'Network error');
  }
  if (response.status === 401) return hold(db, command);
  if (response.status >= 500 || response.status === 429 || response.status === 408 || (await isStillRunning(response))) {
    return retryLater(db, command, deps, `Server busy (${response.status})`);
  }
  try {
    const data = await readData(response, deps.handlers[command.kind].schema);
    await db.transaction('rw', commandTables(db), async () => {
      await deps.handlers[command.kind].apply(db, command, data);
      await db.outbox.delete(command.seq!);
    });
    return 'sent';
  } catch (err) {
    if (err instanceof NetworkError) return retryLater(db, command, deps, err.message);
    const message = err instanceof ApiError ? err.message : 'The server answered in a way we did not expect.';
    await db.outbox.update(command.seq!, { status: 'failed', error: message, attempts: command.attempts + 1 });
    return 'failed';
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
  const token = await deps.getToken(false);
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

/** After the user signs in again, held commands go back in the queue. */
export async function releaseHeld(db: PortalDb): Promise<void> {
  await db.outbox.where('status').equals('held').modify({ status: 'pending', nextAttemptAt: 0 });
  wake();
}

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

// ---- the loop: one sender per page, woken by triggers ----

let wakeUp: (() => void) | null = null;
/** Loops run one after another: a new one (another user, a remount) starts once the old one has stopped. */
let last: Promise<void> = Promise.resolve();

/** Nudges the sender (called on enqueue, `online`, tab visible, timer, service-worker sync). */
export function wake(): void {
  wakeUp?.();
}

/**
 * Runs the sender until `signal` aborts. Across tabs of the same user only one sends at a time (a Web
 * Lock), so FIFO holds and no command goes out twice in parallel.
 */
export function runSender(db: PortalDb, handlers: SenderDeps['handlers'], signal: AbortSignal): Promise<void> {
  const deps: SenderDeps = {
    handlers,
    getToken: (force) => getIdToken(force),
    send: sendOverNetwork,
    now: Date.now,
    random: Math.random,
  };
  const loop = async () => {
    while (!signal.aborted) {
      let result: SendResult;
      try {
        result = await sendNext(db, deps);
      } catch (err) {
        if (err instanceof NetworkError) result = 'retry';
        else if (signal.aborted || db.hasBeenClosed()) break;
        else throw err;
      }
      if (result === 'sent' || result === 'failed') continue;
      await sleepUntilWoken(result === 'retry' ? await nextDueIn(db, deps.now()) : 30_000, signal);
    }
  };
  const exclusive = async (): Promise<void> => {
    if (!navigator.locks) return loop();
    try {
      await navigator.locks.request(`outbox-${db.uid}`, { signal }, loop);
    } catch (err) {
      if (!signal.aborted) throw err; // an aborted wait for the lock is a normal stop
    }
  };
  last = last.then(exclusive, exclusive);
  return last;
}

async function nextDueIn(db: PortalDb, now: number): Promise<number> {
  const due = await db.outbox.where('status').equals('pending').toArray();
  const soonest = Math.min(...due.map((c) => c.nextAttemptAt), now + 30_000);
  return Math.max(50, soonest - now);
}

function sleepUntilWoken(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      if (wakeUp === done) wakeUp = null;
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    wakeUp = done;
    signal.addEventListener('abort', done);
  });
}

// ---- what the outbox panel offers ----

export async function retryCommand(db: PortalDb, seq: number): Promise<void> {
  const command = await db.outbox.get(seq);
  if (!command) return;
  // The server stored its refusal under the old key and would replay it: a failed command retries as a new request.
  const id = command.status === 'failed' ? crypto.randomUUID() : command.id;
  await db.outbox.update(seq, { id, status: 'pending', nextAttemptAt: 0, error: undefined });
  wake();
}

/** Discards a command and the optimistic row it wrote. */
export async function discardCommand(db: PortalDb, seq: number): Promise<void> {
  await db.transaction('rw', commandTables(db), async () => {
    const command = await db.outbox.get(seq);
    if (!command) return;
    // A profile or a staff client file is not the command's own row: only the command goes.
    if (command.target.table !== 'profile' && command.target.table !== 'staffClients') await db.table(command.target.table).delete(command.target.id);
    await db.outbox.delete(seq);
  });
}

/** Edit of a failed command: new payload, same optimistic row, back in the queue with a new key. */
export async function replaceCommandPayload(db: PortalDb, seq: number, change: Pick<OutboxCommand, 'json' | 'form'> & { id: string }): Promise<void> {
  await db.outbox.update(seq, { ...change, status: 'pending', nextAttemptAt: 0, error: undefined, attempts: 0 });
  wake();
}
