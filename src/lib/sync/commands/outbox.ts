import type { CommandKindDef } from './kind.ts';
import { commandTables, type OutboxCommand, type PortalDb } from '../../db.ts';
import { requestBackgroundSync } from '../../pwa.ts';

/**
 * The outbox: every write a user makes (purchase, refund, contact message, initial form, staff reply and note)
 * is a command stored on the device in the same transaction as its optimistic row, then sent by the sync
 * engine's sender (src/lib/sync/sender.ts), in order within its lane and several lanes at once, with a fresh ID token
 * per attempt and the command id as Idempotency-Key. A lost answer therefore never duplicates, and nothing is ever dropped silently.
 */

export type Enqueue = Omit<OutboxCommand, 'seq' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt' | 'error'>;

/** Writes the command and its optimistic row atomically: both exist, or neither. */
export async function enqueue(db: PortalDb, command: Enqueue, writeOptimistic: () => Promise<unknown>): Promise<void> {
  await db.transaction('rw', commandTables(db), async () => {
    await writeOptimistic();
    await db.outbox.add({ ...command, status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: Date.now() });
  });
  queueChanged(db);
  void requestBackgroundSync();
}

/** Queues `body` as a command of the kind `def`: stored as the kind stores it, its optimistic row written by the kind. */
export async function queueCommand<Body>(db: PortalDb, def: CommandKindDef<Body>, command: Omit<Enqueue, 'json' | 'form'>, body: Body): Promise<void> {
  const full = { ...command, ...def.payload(command, body) };
  await enqueue(db, full, () => def.show(db, full, body));
}

/** After the user signs in again, held commands go back in the queue. */
export async function releaseHeld(db: PortalDb): Promise<void> {
  await db.outbox.where('status').equals('held').modify({ status: 'pending', nextAttemptAt: 0 });
  queueChanged(db);
}

/**
 * This page changed `db`'s queue: wakes the sender, wherever it runs. A BroadcastChannel message reaches every
 * other channel of that name, this page's sender included, and the other tabs' (the one holding the lock may be
 * there; without this it would only look again at its next timer). No registry of senders is kept here.
 */
export function queueChanged(db: PortalDb): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(wakeChannelName(db.uid));
  channel.postMessage('queue-changed');
  channel.close();
}

export function wakeChannelName(uid: string): string {
  return `outbox-wake-${uid}`;
}
