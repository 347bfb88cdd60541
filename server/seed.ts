import { eq } from 'drizzle-orm';
import type { Db } from './db/client.ts';
import { businessSettings, users } from './db/schema.ts';
import type { IdentityProvider } from './firebase.ts';
import { demoBusinessSettings, seedClientData } from './seed-data.ts';
import type { Storage } from './storage.ts';

export const demoAccounts = [
  { email: 'admin@demo.test', password: 'Admin#2026', firstName: 'Ada', lastName: 'Admin', role: 'admin approved' },
  { email: 'client@demo.test', password: 'Client#2026', firstName: 'Dana', lastName: 'Client', role: 'approved client, initial form filled' },
  { email: 'lead@demo.test', password: 'Lead#2026', firstName: 'Leo', lastName: 'Lead', role: 'signed up, not approved, initial form not filled' },
  { email: 'staff@demo.test', password: 'Staff#2026', firstName: 'Sam', lastName: 'Support', role: 'support staff (the /staff workspace), not an admin' },
] as const;

/** Idempotent: accounts and rows that exist are left as they are, so a second start changes nothing. */
export async function seedDemo({ db, identity, storage }: { db: Db; identity: IdentityProvider; storage: Storage }) {
  // Settings an admin already changed are theirs: only a database without any gets the demo values.
  await db.insert(businessSettings).values(demoBusinessSettings).onConflictDoNothing();
  for (const account of demoAccounts) {
    const { uid } = await identity.ensureUser({
      email: account.email,
      password: account.password,
      displayName: `${account.firstName} ${account.lastName}`,
    });
    const [existing] = await db.select({ uid: users.uid }).from(users).where(eq(users.uid, uid));
    if (existing) continue;
    const isAdmin = account.email === 'admin@demo.test';
    const isLead = account.email === 'lead@demo.test';
    const isStaff = account.email === 'staff@demo.test';
    // The profile and the demo client's data commit together: a failed seed leaves nothing behind to skip next time.
    await db.transaction(async (tx) => {
      await tx.insert(users).values({
        uid,
        email: account.email,
        firstName: account.firstName,
        lastName: account.lastName,
        isAdmin,
        isStaff,
        // Staff run the workspace; they are not clients and have no case of their own.
        isClient: !isLead && !isStaff,
        filledInitialForm: !isLead && !isStaff,
        initialForm: isLead || isStaff
          ? null
          : { moneyLost: 12500, lastFundsTransfer: Date.UTC(2026, 9, 3, 14, 30), fraudType: 'CRYPTO', fraudUrl: 'https://fake-exchange.example', name: `${account.firstName} ${account.lastName}` },
      });
      if (account.email === 'client@demo.test') await seedClientData(tx as unknown as Db, uid, storage);
    });
  }
}
