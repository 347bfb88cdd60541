import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { businessSettings, totpFactors, users } from '../db/schema.ts';
import type { IdentityProvider } from '../auth/firebase.ts';
import { DEMO_TOTP_SECRETS, demoBusinessSettings, seedClientData } from './seed-data.ts';
import type { Storage } from '../files/storage.ts';

export interface DemoAccount {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  kind: 'admin' | 'client' | 'lead' | 'staff';
  role: string;
}

export const demoAccounts: readonly DemoAccount[] = [
  { email: 'admin@demo.test', password: 'Admin#2026', firstName: 'Ada', lastName: 'Admin', kind: 'admin', role: 'admin approved' },
  { email: 'client@demo.test', password: 'Client#2026', firstName: 'Dana', lastName: 'Client', kind: 'client', role: 'approved client, initial form filled' },
  { email: 'lead@demo.test', password: 'Lead#2026', firstName: 'Leo', lastName: 'Lead', kind: 'lead', role: 'signed up, not approved, initial form not filled' },
  { email: 'staff@demo.test', password: 'Staff#2026', firstName: 'Sam', lastName: 'Support', kind: 'staff', role: 'support staff (the /staff workspace), not an admin' },
];

/**
 * Idempotent: accounts and rows that exist are left as they are, so a second start changes nothing. A demo
 * user is found by email in the database first: its uid is the one its requests hang on, so an account the
 * identity provider lost (the Auth emulator after a hard stop) is made again with that uid, never a new one.
 */
export async function seedDemo({ db, identity, storage }: { db: Db; identity: IdentityProvider; storage: Storage }, accounts: readonly DemoAccount[] = demoAccounts) {
  // Settings an admin already changed are theirs: only a database without any gets the demo values.
  await db.insert(businessSettings).values(demoBusinessSettings).onConflictDoNothing();
  for (const account of accounts) {
    const [existing] = await db.select({ uid: users.uid }).from(users).where(sql`lower(${users.email}) = lower(${account.email})`);
    const { uid } = await identity.ensureUser({
      email: account.email,
      password: account.password,
      displayName: `${account.firstName} ${account.lastName}`,
      ...(existing ? { uid: existing.uid } : {}),
    });
    if (existing) {
      await seedDemoTotp(db, uid, account.kind);
      continue;
    }
    const isLead = account.kind === 'lead';
    const isStaff = account.kind === 'staff';
    // The profile and the demo client's data commit together: a failed seed leaves nothing behind to skip next time.
    await db.transaction(async (tx) => {
      await tx.insert(users).values({
        uid,
        email: account.email,
        firstName: account.firstName,
        lastName: account.lastName,
        isAdmin: account.kind === 'admin',
        isStaff,
        // Staff run the workspace; they are not clients and have no case of their own.
        isClient: !isLead && !isStaff,
        filledInitialForm: !isLead && !isStaff,
        initialForm: isLead || isStaff
          ? null
          : { moneyLost: 12500, lastFundsTransfer: Date.UTC(2026, 9, 3, 14, 30), fraudType: 'CRYPTO', fraudUrl: 'https://fake-exchange.example', name: `${account.firstName} ${account.lastName}` },
      });
      if (account.kind === 'client') await seedClientData(tx as unknown as Db, uid, storage);
    });
    await seedDemoTotp(db, uid, account.kind);
  }
}

/**
 * The demo staff and admin accounts' authenticator app (DEMO_TOTP_SECRETS), for a database seeded before or after
 * second factors existed. An account that has one already (an admin who set up their own) keeps it.
 */
async function seedDemoTotp(db: Db, uid: string, kind: DemoAccount['kind']) {
  const secret = kind === 'staff' || kind === 'admin' ? DEMO_TOTP_SECRETS[kind] : undefined;
  if (!secret) return;
  await db.insert(totpFactors).values({ uid, secret, confirmedAt: sql`now()` }).onConflictDoNothing();
}
