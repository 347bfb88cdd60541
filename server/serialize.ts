import type { Profile } from '../domain/schemas.ts';
import type { users } from './db/schema.ts';

/** Row → API shape. Kept in one place so the REST answers and the sync feed can never disagree. */
export function toProfile(row: typeof users.$inferSelect): Profile {
  return {
    uid: row.uid,
    email: row.email,
    firstName: row.firstName,
    lastName: row.lastName,
    isClient: row.isClient,
    isAdmin: row.isAdmin,
    filledInitialForm: row.filledInitialForm,
    initialForm: (row.initialForm as Profile['initialForm']) ?? null,
    activityStatus: row.activityStatus === 'ACTIVE' ? 'ACTIVE' : 'IN_ACTIVE',
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
