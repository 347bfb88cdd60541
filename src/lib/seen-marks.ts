import { z } from 'zod';
import { SeenBody } from '../../domain/push.ts';
import type { CommandKindDef } from './sync/commands/kind.ts';
import { type PortalDb, commandTables } from './db.ts';
import { enqueue } from './sync/commands/outbox.ts';

/**
 * "The user has seen this": a support thread opened, a request's details opened. The server then need not email
 * about what the app already showed. Sent as PUT /api/seen, at most once per new thing: the device keeps, per
 * thread and request, the time of the newest thing it marked (in the meta store, wiped with the replica), and a
 * reopening that shows nothing newer sends nothing.
 */

/** The meta key of a subject's last mark. */
export function seenMarkKey(body: Pick<SeenBody, 'kind' | 'id'>): string {
  return `seen:${body.kind}:${body.id}`;
}

const MarkBefore = z.object({ before: z.string().nullable() });

/** Whether `stamp` is later than the stored mark (instants, not text: "…00.5Z" is later than "…00Z"). */
function isNewer(stamp: string, mark: unknown): boolean {
  if (typeof mark !== 'string') return true;
  const at = Date.parse(stamp);
  const known = Date.parse(mark);
  return !Number.isFinite(known) || (Number.isFinite(at) && at > known);
}

export const seenKind: CommandKindDef<SeenBody> = {
  read(command) {
    const body = SeenBody.safeParse(command.json);
    return body.success ? body.data : null;
  },
  validate: (_command, body) => SeenBody.safeParse(body),
  payload: (_command, body) => ({ json: body }),
  // The mark is written when the command is queued (queueSeen), where the time of what was shown is known; a seen
  // mark is never edited, so there is nothing to show again.
  show: async () => undefined,
  /** Discard forgets the mark, so opening the thread or request again marks it again. */
  async revert(db, command) {
    const before = MarkBefore.safeParse(command.revert);
    if (!before.success) return;
    if (before.data.before === null) await db.meta.delete(command.target.id);
    else await db.meta.put({ key: command.target.id, value: before.data.before });
  },
  answer: z.unknown(),
  // The server's answer changes nothing on the device: the mark was kept when the command was queued.
  confirm: async () => undefined,
};

/** Queues `body` when `stamp` (the time of the newest thing shown) is later than the device's mark; the command id, or null. */
async function queueSeen(db: PortalDb, body: SeenBody, stamp: string): Promise<string | null> {
  const key = seenMarkKey(body);
  // The check and the queueing in one transaction (the one enqueue opens), so two openings at once queue one command.
  return db.transaction('rw', commandTables(db), async () => {
    const mark = (await db.meta.get(key))?.value;
    if (!isNewer(stamp, mark)) return null;
    const commandId = crypto.randomUUID();
    const command = {
      commandId,
      kind: 'seen' as const,
      label: body.kind === 'thread' ? 'Conversation opened' : 'Request opened',
      method: 'PUT' as const,
      path: '/seen',
      json: body,
      target: { table: 'meta' as const, id: key },
      revert: { before: typeof mark === 'string' ? mark : null },
    };
    await enqueue(db, command, () => db.meta.put({ key, value: stamp }));
    return commandId;
  });
}

interface Dated {
  id: string;
  createdAt: string;
  pending?: boolean;
}

/**
 * A support thread was opened showing `replies`: marks its newest reply the server knows (or the thread itself
 * when it has none yet). Threads and replies still in the outbox have no server id and are not marked.
 */
export function markThreadSeen(db: PortalDb, thread: Dated, replies: readonly Dated[]): Promise<string | null> {
  if (thread.pending) return Promise.resolve(null);
  const newest = replies.filter((r) => !r.pending).reduce<Dated | null>((a, r) => (a && Date.parse(a.createdAt) >= Date.parse(r.createdAt) ? a : r), null);
  return queueSeen(db, { kind: 'thread', id: thread.id, replyId: newest?.id ?? null }, newest?.createdAt ?? thread.createdAt);
}

/** A request's details were opened: marks the request as of its `updatedAt` (not for a request still in the outbox). */
export function markRequestSeen(db: PortalDb, request: { id: string; updatedAt: string; pending?: boolean }): Promise<string | null> {
  if (request.pending) return Promise.resolve(null);
  return queueSeen(db, { kind: 'request', id: request.id, updatedAt: request.updatedAt }, request.updatedAt);
}
