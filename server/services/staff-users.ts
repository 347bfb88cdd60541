import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RoleBody } from '../../domain/staff.ts';
import type { Db } from '../db/client.ts';
import { userPresence, users } from '../db/schema.ts';
import { conflict, forbidden, notFound } from '../platform/errors.ts';
import { toStaffClient } from '../serialize/rows.ts';
import type { AuditRecord } from './audit.ts';
import { type Actor, type StaffChange, staffWrite } from './staff-write.ts';

type UserRow = typeof users.$inferSelect;

/**
 * Staff writes on a user: approving a lead as a client, and the staff and admin roles (admins only, which the route
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

export function setRole(app: FastifyInstance, request: FastifyRequest, uid: string, body: RoleBody) {
  if (body.admin !== undefined) {
    const admin = body.admin;
    return staffWrite(app, request, {
      lock: (tx) => lockForAdminChange(tx, uid),
      check: (_tx, locked, actor) => checkAdminChange(locked, admin, body.version, actor),
      change: (tx, locked, actor) => writeAdminRole(tx, locked.row, admin, actor),
      status: 200,
      answer: userAnswer,
      poke: (row) => ({ client: row.uid }),
    });
  }
  const staff = body.staff === true;
  return staffWrite(app, request, {
    lock: (tx) => lockUser(tx, uid),
    check: (_tx, row, actor) => checkRoleChange(row, staff, body.version, actor),
    change: (tx, row, actor) => writeStaffRole(tx, row, staff, actor),
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

function checkRoleChange(row: LockedUser, staff: boolean, version: number, actor: Actor): void {
  // An admin is staff whatever is_staff says, so revoking one would change nothing and mislead.
  if (!staff && row.uid === actor.uid) throw conflict('CANNOT_REVOKE_SELF', 'You cannot remove your own staff role. Ask another admin.');
  if (!staff && row.isAdmin) throw conflict('ADMIN_IS_STAFF', `${row.email} is an admin, and admins are always staff. Remove their admin role first.`);
  checkUserVersion(row, version);
}

/** Sets the user's roles, bumps the version, and audits what changed (the roles named in `roles`). */
async function writeRoles(tx: Db, row: LockedUser, roles: { isAdmin?: boolean; isStaff: boolean }, actor: Actor): Promise<StaffChange<LockedUser>> {
  const [updated] = await tx
    .update(users)
    .set({ ...roles, version: row.version + 1 })
    .where(eq(users.uid, row.uid))
    .returning();
  const before = roles.isAdmin === undefined ? { isStaff: row.isStaff } : { isAdmin: row.isAdmin, isStaff: row.isStaff };
  const audit: AuditRecord = { actor, action: 'role', entityType: 'user', entityId: row.uid, subjectUid: row.uid, before, after: roles };
  return { done: { ...updated, presence: row.presence }, audit };
}

const writeStaffRole = (tx: Db, row: LockedUser, staff: boolean, actor: Actor) => writeRoles(tx, row, { isStaff: staff }, actor);

/** The user whose admin role changes, and the uids of every admin as they are once the locks are held. */
interface AdminChangeLock {
  row: LockedUser;
  admins: string[];
}

/**
 * Every admin's row, then the user's, locked in that order by every admin change: two admins taking each other's
 * role at once then run one after the other (never a deadlock, never both), and the second one sees the first's
 * outcome, so the count of admins left is always the true one.
 */
async function lockForAdminChange(tx: Db, uid: string): Promise<AdminChangeLock> {
  const admins = await tx.select({ uid: users.uid }).from(users).where(eq(users.isAdmin, true)).orderBy(asc(users.uid)).for('update');
  const row = await lockUser(tx, uid);
  return { row, admins: admins.map((a) => a.uid) };
}

function checkAdminChange({ row, admins }: AdminChangeLock, admin: boolean, version: number, actor: Actor): void {
  // The route checked the caller's role when the request arrived; another admin may have taken it since.
  if (!admins.includes(actor.uid)) throw forbidden('You are no longer an admin.');
  if (!admin && row.uid === actor.uid) throw conflict('CANNOT_REVOKE_SELF', 'You cannot remove your own admin role. Ask another admin.');
  // Unreachable while an admin cannot remove themselves, and kept so that no path ever leaves the portal without one.
  if (!admin && row.isAdmin && admins.length <= 1) throw conflict('LAST_ADMIN', `${row.email} is the last admin. Make someone else an admin first.`);
  checkUserVersion(row, version);
}

/**
 * Grants or takes the admin role. An admin is staff by being one, so a former admin keeps the staff workspace
 * (is_staff set) until a staff revoke; a new admin's is_staff stays as it was, for the same reason.
 */
function writeAdminRole(tx: Db, row: LockedUser, admin: boolean, actor: Actor): Promise<StaffChange<LockedUser>> {
  return writeRoles(tx, row, { isAdmin: admin, isStaff: admin ? row.isStaff : true }, actor);
}
