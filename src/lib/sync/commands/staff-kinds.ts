import { z } from 'zod';
import { ReplyBody } from '../../../../domain/schemas.ts';
import { type ClientFile, NoteBody, StaffNote, StaffThread } from '../../../../domain/staff.ts';
import { type CommandKindDef, type CommandKinds, StoredReply, threadIdOf } from './kind.ts';
import type { OutboxCommand, PortalDb } from '../../db.ts';
import { queueCommand } from './outbox.ts';

/**
 * The staff workspace's offline writes: a reply to a client's thread and an internal note. They go
 * through the same outbox as the client's commands (exactly once, in order). They write no optimistic row:
 * the page shows them from the outbox until sent (so Discard, which deletes the command, undoes them), and
 * the server's answer is written into the cached client file at once.
 */
const StoredNote = z.object({ clientUid: z.string(), requestId: z.string().optional(), body: z.string() });

const staffReply: CommandKindDef<ReplyBody> = {
  read: (command) => {
    const body = StoredReply.safeParse(command.json);
    return body.success ? body.data : null;
  },
  validate: (_command, body) => ReplyBody.safeParse(body),
  payload: (_command, body) => ({ json: body }),
  show: async () => undefined,
  revert: async () => undefined,
  answer: StaffThread,
  async confirm(db, command, data) {
    const thread = StaffThread.parse(data);
    await patchClientFile(db, command, (file) => ({ ...file, threads: file.threads.map((t) => (t.id === thread.id ? thread : t)) }));
  },
};

const staffNote: CommandKindDef<NoteBody> = {
  // By shape only, like every stored body (see kinds.ts): what the server refused still opens in its form.
  read: (command) => {
    const body = StoredNote.safeParse(command.json);
    return body.success ? body.data : null;
  },
  // The note stays on the client (and request) it was written on: only its text is edited.
  validate: (command, body) => NoteBody.refine((note) => note.clientUid === command.target.id, 'A note stays on its client').safeParse(body),
  payload: (_command, body) => ({ json: body }),
  show: async () => undefined,
  revert: async () => undefined,
  answer: StaffNote,
  async confirm(db, command, data) {
    const note = StaffNote.parse(data);
    await patchClientFile(db, command, (file) => ({ ...file, notes: [note, ...file.notes.filter((n) => n.id !== note.id)] }));
    if (note.requestId) {
      const copy = await db.staffRequests.get(note.requestId);
      if (copy) await db.staffRequests.put({ ...copy, data: { ...copy.data, notes: [note, ...copy.data.notes.filter((n) => n.id !== note.id)] } });
    }
  },
};

export const staffCommandKinds: Pick<CommandKinds, 'staffReply' | 'staffNote'> = { staffReply, staffNote };

async function patchClientFile(db: PortalDb, command: OutboxCommand, change: (file: ClientFile) => ClientFile): Promise<void> {
  const copy = await db.staffClients.get(command.target.id);
  if (copy) await db.staffClients.put({ ...copy, data: change(copy.data) });
}

/** Queues a reply to a client's support thread; `clientUid` is whose file shows it. */
export async function queueStaffReply(db: PortalDb, clientUid: string, threadId: string, subject: string, message: string): Promise<string> {
  const commandId = crypto.randomUUID();
  const path = `/staff/threads/${encodeURIComponent(threadId)}/replies`;
  const command = { commandId, kind: 'staffReply' as const, label: `Reply: ${subject}`, method: 'POST' as const, path, target: { table: 'staffClients' as const, id: clientUid } };
  await queueCommand(db, staffReply, command, { reply: { message } });
  return commandId;
}

/** Queues an internal note on a client or, with `requestId`, on one of their requests. */
export async function queueStaffNote(db: PortalDb, clientUid: string, body: string, requestId?: string): Promise<string> {
  const commandId = crypto.randomUUID();
  const command = { commandId, kind: 'staffNote' as const, label: 'Internal note', method: 'POST' as const, path: '/staff/notes', target: { table: 'staffClients' as const, id: clientUid } };
  await queueCommand(db, staffNote, command, { clientUid, body, ...(requestId ? { requestId } : {}) });
  return commandId;
}

/** A staff write still in the outbox, as its page shows it until it is sent. */
export type QueuedStaffWrite =
  | { kind: 'staffReply'; command: OutboxCommand; threadId: string; message: string }
  | { kind: 'staffNote'; command: OutboxCommand; requestId: string | null; body: string };

/** Reads back what queueStaffReply / queueStaffNote stored, with their kinds' schemas; null for any other command. */
export function readStaffCommand(command: OutboxCommand): QueuedStaffWrite | null {
  if (command.kind === 'staffReply') {
    const threadId = threadIdOf(command);
    const body = staffReply.read(command);
    return threadId && body ? { kind: 'staffReply', command, threadId, message: body.reply.message } : null;
  }
  if (command.kind === 'staffNote') {
    const body = staffNote.read(command);
    return body ? { kind: 'staffNote', command, requestId: body.requestId ?? null, body: body.body } : null;
  }
  return null;
}
