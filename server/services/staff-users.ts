import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RoleBody } from '../../domain/staff.ts';
import type { Db } from '../db/client.ts';
import { userPresence, users } from '../db/schema.ts';
import { conflict, notFound } from '../platform/errors.ts';
import { toStaffClient } from '../serialize/rows.ts';
import type { AuditRecord } from './audit.ts';
import { type Actor, type StaffChange, staffWrite } from './staff-write.ts';

type UserRow = typeof users.$inferSelect;

/**
 * Staff writes on a user: approving a lead as a client, and the staff role (admins only, which the route
 * checks). Each is one staffWrite on the user's row, answered with the user as the workspace shows them.
 */

const userAnswer = (row: LockedUser) => ({ data: toStaffClient(row, row.presence) });

export function approveClient(app: FastifyInstance, request: FastifyRequest, uid: string, version: number) {
  return staffWrite(app, request, {
    lock: (tx) => lockUser(tx, uid),
    check: (_tx, row) => checkApproval(row, version),
    change: approve,
    status: 200,
    answer: userAnswer,
    poke: (row) => ({ client: row.uid }),
  });
}

export function setStaffRole(app: FastifyInstance, request: FastifyRequest, uid: string, body: z.infer<typeof RoleBody>) {
  return staffWrite(app, request, {
    lock: (tx) => lockUser(tx, uid),
    check: (_tx, row, actor) => checkRoleChange(row, body, actor),
    change: (tx, row, actor) => writeStaffRole(tx, row, body, actor),
    status: 200,
    answer: userAnswer,
    poke: (row) => ({ client: row.uid }),
  });
}

/** A user row as staff writes read it: with their presence, so every answer and 409 shows the stored one. */
type LockedUser = UserRow & { presence: string | null };

async function lockUser(tx: Db, uid: string): Promise<LockedUser> {
  const [found] = await tx
    .select({ user: users, presence: userPresence.status })
    .from(users)
    .leftJoin(userPresence, eq(userPresence.uid, users.uid))
    .where(eq(users.uid, uid))
    .for('update', { of: users });
  if (!found) throw notFound(`User ${uid} not found`);
  return { ...found.user, presence: found.presence };
}

function checkUserVersion(row: LockedUser, version: number): void {
  if (version === row.version) return;
  throw conflict('VERSION_CONFLICT', 'Someone else changed this user since you opened them. Look again, then retry.', { current: toStaffClient(row, row.presence) });
}

/** Already approved is the clearer answer, whatever the version. */
function checkApproval(row: LockedUser, version: number): void {
  if (row.isClient) throw conflict('ALREADY_APPROVED', `${row.email} is already an approved client.`, { current: toStaffClient(row, row.presence) });
  checkUserVersion(row, version);
}

async function approve(tx: Db, row: LockedUser, actor: Actor): Promise<StaffChange<LockedUser>> {
  const [updated] = await tx
    .update(users)
    .set({ isClient: true, version: row.version + 1 })
    .where(eq(users.uid, row.uid))
    .returning();
  const audit: AuditRecord = {
    actor,
    action: 'approve',
    entityType: 'user',
    entityId: row.uid,
    subjectUid: row.uid,
    before: { isClient: false },
    after: { isClient: true },
  };
  const notify = { userId: row.uid, message: 'Your account has been approved. You can now order our services.' };
  return { done: { ...updated, presence: row.presence }, audit, notify };
}

function checkRoleChange(row: LockedUser, body: z.infer<typeof RoleBody>, actor: Actor): void {
  // An admin is staff whatever is_staff says, so revoking one would change nothing and mislead.
  if (!body.staff && row.uid === actor.uid) throw conflict('CANNOT_REVOKE_SELF', 'You cannot remove your own staff role. Ask another admin.');
  if (!body.staff && row.isAdmin) throw conflict('ADMIN_IS_STAFF', `${row.email} is an admin, and admins are always staff. Their staff role cannot be removed here.`);
  checkUserVersion(row, body.version);
}

async function writeStaffRole(tx: Db, row: LockedUser, body: z.infer<typeof RoleBody>, actor: Actor): Promise<StaffChange<LockedUser>> {
  const [updated] = await tx
    .update(users)
    .set({ isStaff: body.staff, version: row.version + 1 })
    .where(eq(users.uid, row.uid))
    .returning();
  const audit: AuditRecord = {
    actor,
    action: 'role',
    entityType: 'user',
    entityId: row.uid,
    subjectUid: row.uid,
    before: { isStaff: row.isStaff },
    after: { isStaff: body.staff },
  };
  return { done: { ...updated, presence: row.presence }, audit };
}
