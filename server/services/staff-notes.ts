import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { NoteBody } from '../../domain/staff.ts';
import type { Db } from '../db/client.ts';
import { productRequests, staffNotes, users } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';
import { toStaffNote } from '../serialize/messages.ts';
import { commandIdConflict, commandIdOf, insertOnce, keyReused } from './command-ids.ts';
import { type Actor, staffWrite } from './staff-write.ts';

/**
 * An internal note on a client or one of their requests (an outbox command, stored once per command id). Notes
 * are never the client's: no notification, no client poke (staff streams only), no client route reads them.
 */
export function addStaffNote(app: FastifyInstance, request: FastifyRequest, body: NoteBody) {
  return staffWrite(app, request, {
    // A note changes no existing row: there is nothing to lock.
    lock: async () => undefined,
    change: async (tx, _none, actor) => ({ done: await addNote(tx, body, actor, commandIdOf(request)) }),
    status: 201,
    answer: (note) => ({ data: toStaffNote(note) }),
    // Only staff streams: the staff member's other devices and colleagues with the page in their replica.
    poke: () => 'staff',
  });
}

/** A note on a client, or on one of their requests: a request of someone else is "not found", like an unknown one. */
async function addNote(db: Db, body: NoteBody, actor: Actor, commandId: string | null): Promise<typeof staffNotes.$inferSelect> {
  const [client] = await db.select({ uid: users.uid }).from(users).where(eq(users.uid, body.clientUid));
  if (!client) throw notFound(`Client ${body.clientUid} not found`);
  if (body.requestId !== undefined) {
    const [owned] = await db
      .select({ id: productRequests.id })
      .from(productRequests)
      .where(and(eq(productRequests.id, body.requestId), eq(productRequests.userId, client.uid)));
    if (!owned) throw notFound('Request not found');
  }
  const { row: note } = await insertOnce(
    commandId,
    async (key) => (await db.select().from(staffNotes).where(and(eq(staffNotes.authorUid, actor.uid), eq(staffNotes.commandId, key))))[0],
    async () =>
      (
        await db
          .insert(staffNotes)
          .values({ subjectUid: client.uid, requestId: body.requestId ?? null, authorUid: actor.uid, authorEmail: actor.email, body: body.body, commandId })
          .onConflictDoNothing(commandIdConflict(staffNotes.authorUid, staffNotes.commandId))
          .returning()
      )[0],
  );
  // A key that stored a note on someone else was not this request's (its claim was pruned since).
  if (note.subjectUid !== client.uid) throw keyReused();
  return note;
}
