import type { CommandBodies, CommandKindDef } from './kind.ts';
import { commandKinds } from './kinds.ts';
import { type CommandKind, commandTables, type OutboxCommand, type PortalDb } from '../../db.ts';
import { queueChanged } from './outbox.ts';

/** What the outbox panel offers on a command: Retry, Discard (a true undo) and Edit (failed ones). */

export async function retryCommand(db: PortalDb, seq: number): Promise<void> {
  const command = await db.outbox.get(seq);
  if (!command) return;
  // The server stored its refusal under the old key and would replay it: a failed command retries as a new request.
  const commandId = command.status === 'failed' ? crypto.randomUUID() : command.commandId;
  await db.outbox.update(seq, { commandId, status: 'pending', nextAttemptAt: 0, error: undefined });
  queueChanged(db);
}

/** Discards a command and undoes its optimistic write, as its kind defines, in one transaction. */
export async function discardCommand(db: PortalDb, seq: number): Promise<void> {
  await db.transaction('rw', commandTables(db), async () => {
    const command = await db.outbox.get(seq);
    if (!command) return;
    await commandKinds[command.kind].revert(db, command);
    await db.outbox.delete(seq);
  });
}

/** The body stored on a command, read with its kind's schema; null when it cannot be read (then it cannot be edited). */
export function readCommandBody<K extends CommandKind>(command: OutboxCommand & { kind: K }): CommandBodies[K] | null {
  return commandKinds[command.kind].read(command);
}

export class InvalidEditError extends Error {}

/**
 * Edit of a failed command: the new body is checked with the kind's schema (a value the server would refuse is
 * refused here, and nothing changes), then written over the command and its optimistic row in one transaction,
 * so the row shows the new values. It goes back in the queue with a new key: the server stored its refusal
 * under the old one.
 */
export async function editCommand<K extends CommandKind>(db: PortalDb, seq: number, kind: K, body: CommandBodies[K]): Promise<void> {
  await db.transaction('rw', commandTables(db), async () => {
    const command = await db.outbox.get(seq);
    if (!command || command.kind !== kind) throw new InvalidEditError('This command is no longer in the outbox.');
    await rewrite(db, command, commandKinds[kind], body);
  });
  queueChanged(db);
}

/** One kind's half of editCommand, generic in the body so that schema, payload and row agree on its type. */
async function rewrite<Body>(db: PortalDb, command: OutboxCommand, def: CommandKindDef<Body>, input: unknown): Promise<void> {
  const checked = def.validate(command, input);
  if (!checked.success) throw new InvalidEditError(checked.error.issues[0]?.message ?? 'The edited values are not valid.');
  const body = checked.data;
  await def.show(db, command, body);
  const label = def.label?.(body) ?? command.label;
  await db.outbox.update(command.seq!, { ...def.payload(command, body), label, commandId: crypto.randomUUID(), status: 'pending', nextAttemptAt: 0, error: undefined, attempts: 0 });
}
