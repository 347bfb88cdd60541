import { asc, eq, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { notFound } from '../platform/errors.ts';

/** Every staff member and admin, by email. */
export function teamMembers(db: Db) {
  return db
    .select()
    .from(users)
    .where(or(eq(users.isStaff, true), eq(users.isAdmin, true)))
    .orderBy(asc(users.email), asc(users.uid));
}

/** The user with this email in any case (the oldest uid when two differ only in case), to grant the staff role. */
export async function userByEmail(db: Db, email: string) {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .orderBy(asc(users.uid))
    .limit(1);
  if (!row) throw notFound(`No user with the email ${email}`);
  return row;
}
