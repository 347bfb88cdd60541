import { type ClientFile, StaffNote, StaffThread } from '../../domain/staff.ts';
import type { OutboxCommand, PortalDb, StaffCommandKind } from './db.ts';
import { type CommandHandler, enqueue } from './outbox.ts';

/**
 * The staff workspace's offline writes: a reply to a client's thread and an internal note. They go
 * through the same outbox as the client's commands (exactly once, in order); the page shows them from
 * the outbox until sent, and the server's answer is written into the cached client file at once.
 */
export const staffCommandHandlers: Record<StaffCommandKind, CommandHandler> = {
  staffReply: {
    schema: StaffThread,
    async apply(db, command, data) {
      const thread = StaffThread.parse(data);
      await patchClientFile(db, command, (file) => ({ ...file, threads: file.threads.map((t) => (t.id === thread.id ? thread : t)) }));
    },
  },
  staffNote: {
    schema: StaffNote,
    async apply(db, command, data) {
      const note = StaffNote.parse(data);
      await patchClientFile(db, command, (file) => ({ ...file, notes: [note, ...file.notes.filter((n) => n.id !== note.id)] }));
      if (note.requestId) {
        const copy = await db.staffRequests.get(note.requestId);
        if (copy) await db.staffRequests.put({ ...copy, data: { ...copy.data, notes: [note, ...copy.data.notes.filter((n) => n.id !== note.id)] } });
      }
    },
  },
};

async function patchClientFile(db: PortalDb, command: OutboxCommand, change: (file: ClientFile) => ClientFile): Promise<void> {
  const copy = await db.staffClients.get(command.target.id);
  if (copy) await db.staffClients.put({ ...copy, data: change(copy.data) });
}

/** Queues a reply to a client's support thread; `clientUid` is whose file shows it. */
export async function queueStaffReply(db: PortalDb, clientUid: string, threadId: string, subject: string, message: string): Promise<string> {
  const id = crypto.randomUUID();
  await enqueue(
    db,
    {
      id,
      kind: 'staffReply',
      label: `Reply: ${subject}`,
      method: 'POST',
      path: `/staff/threads/${encodeURIComponent(threadId)}/replies`,
      json: { reply: { message } },
      target: { table: 'staffClients', id: clientUid },
    },
    async () => undefined,
  );
  return id;
}

/** Queues an internal note on a client or, with `requestId`, on one of their requests. */
export async function queueStaffNote(db: PortalDb, clientUid: string, body: string, requestId?: string): Promise<string> {
  const id = crypto.randomUUID();
  await enqueue(
    db,
    {
      id,
      kind: 'staffNote',
      label: 'Internal note',
      method: 'POST',
      path: '/staff/notes',
      json: { clientUid, body, ...(requestId ? { requestId } : {}) },
      target: { table: 'staffClients', id: clientUid },
    },
    async () => undefined,
  );
  return id;
}

/** A staff write still in the outbox, as its page shows it until it is sent. */
export type QueuedStaffWrite =
  | { kind: 'staffReply'; command: OutboxCommand; threadId: string; message: string }
  | { kind: 'staffNote'; command: OutboxCommand; requestId: string | null; body: string };

const replyPath = /^\/staff\/threads\/([^/]+)\/replies$/;

/** Reads back what queueStaffReply / queueStaffNote stored; null for any other command. */
export function readStaffCommand(command: OutboxCommand): QueuedStaffWrite | null {
  if (command.kind === 'staffReply') {
    const threadId = replyPath.exec(command.path)?.[1];
    const message = (command.json as { reply?: { message?: unknown } } | undefined)?.reply?.message;
    return threadId && typeof message === 'string' ? { kind: 'staffReply', command, threadId: decodeURIComponent(threadId), message } : null;
  }
  if (command.kind === 'staffNote') {
    const json = command.json as { body?: unknown; requestId?: unknown } | undefined;
    if (typeof json?.body !== 'string') return null;
    return { kind: 'staffNote', command, requestId: typeof json.requestId === 'string' ? json.requestId : null, body: json.body };
  }
  return null;
}
