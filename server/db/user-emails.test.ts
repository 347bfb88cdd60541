import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backends, createTestApp, freshPostgresUrl, postgresSkipReason, signUp, emulatorHost, type TestApp } from '../test-helper.ts';
import { users } from './schema.ts';
import { databaseBefore } from './stepwise-migrations.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[user-emails.test] PostgreSQL run skipped: ${skip}`);

/** The error drizzle's migrator throws, with PostgreSQL's own message (and hint) wherever it is nested. */
function fullMessage(err: unknown): string {
  const parts: string[] = [];
  for (let e = err as { message?: string; hint?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    parts.push(e.message ?? '', e.hint ?? '');
  }
  return parts.join('\n');
}

describe.each(backends())('one portal user per email (%s)', (backend) => {
  const urlFor = () => (backend === 'postgres' ? freshPostgresUrl() : Promise.resolve(null));

  it('the migration stops on emails two users share (case aside), names them with their uids, and changes nothing', async () => {
    const db = await databaseBefore('0016', await urlFor());
    try {
      await db.query(sql`INSERT INTO users (uid, email) VALUES ('old-uid', 'Client@Demo.test'), ('new-uid', 'client@demo.test'), ('other', 'other@demo.test'), ('phone-1', ''), ('phone-2', '')`);
      const failure = await db.migrateRest().then(
        () => null,
        (err: unknown) => err,
      );
      const message = fullMessage(failure);
      expect(message).toContain('users.email must be unique, and these emails belong to more than one user: client@demo.test (uids ');
      expect(message).toMatch(/old-uid, new-uid|new-uid, old-uid/);
      expect(message).not.toContain('other@demo.test');
      expect(message).toContain('Keep the user whose uid the identity provider has');
      // Rolled back: every row is still there, and no index was made.
      expect(await db.query(sql`SELECT count(*)::int AS n FROM users`)).toEqual([{ n: 5 }]);
      expect(await db.query(sql`SELECT indexname FROM pg_indexes WHERE indexname = 'users_email_unique'`)).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it('after the migration a second user with the same email in another case is refused; accounts without an email are not', async () => {
    const db = await databaseBefore('0016', await urlFor());
    try {
      await db.query(sql`INSERT INTO users (uid, email) VALUES ('a', 'a@demo.test'), ('phone-1', '')`);
      await db.migrateRest();
      await db.query(sql`INSERT INTO users (uid, email) VALUES ('phone-2', '')`);
      const refused = await db.query(sql`INSERT INTO users (uid, email) VALUES ('b', 'A@Demo.TEST')`).then(
        () => null,
        (err: unknown) => fullMessage(err),
      );
      expect(refused).toContain('users_email_unique');
    } finally {
      await db.close();
    }
  });
});

describe.each(backends())('an account made again under a new uid (%s)', (backend) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('gets 409 EMAIL_TAKEN in words, not a 500, and no second row', async () => {
    const first = await t.user();
    // The same email held by the database under the first uid, and signed up again as a new account (the
    // identity provider forgot the first): the database row was the first account's.
    const email = `again-${Date.now()}@test.example`;
    await t.services.db.update(users).set({ email }).where(eq(users.uid, first.uid));
    const again = await signUp(emulatorHost(), email.toUpperCase(), 'Secret#123');
    const res = await t.app.inject({ url: '/api/user', headers: { authorization: `Bearer ${again.idToken}` } });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().error.code).toBe('EMAIL_TAKEN');
    expect(res.json().error.message).toContain('Another account of the portal already has this email address');
    expect(await t.services.db.select({ uid: users.uid }).from(users).where(sql`lower(${users.email}) = ${email}`)).toEqual([{ uid: first.uid }]);
  });
});
