import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncPage } from '../../domain/sync.ts';
import { auditLog, deliveries, notifications, paymentDetailsProposals, users } from '../db/schema.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[payment-details.test] PostgreSQL run skipped: ${skip}`);

/** What clients are told to pay into at first. */
const seeded = {
  accountHolder: 'Four Eyes Ltd',
  bankName: 'First Bank',
  accountNumber: 'GB11 FIRS 0000 1111 1111 11',
  bic: 'FIRSGB22',
  paymentNote: 'Quote the reference.',
  officialEmails: ['support@portal.example'],
  officialDomains: ['portal.example'],
  officialPhones: [],
};
/** What someone with an admin's password would like them to pay into. */
const swapped = { accountHolder: 'Four Eyes Ltd', bankName: 'Elsewhere Bank', accountNumber: 'LT12 1000 0111 0100 1000', bic: 'ELSELT2X' };

describe.each(backends())('payment details need a second admin (%s)', (backend) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let staff: TestUser;
  let client: TestUser;

  beforeAll(async () => {
    // An SMTP address turns email on, so the deliveries' email rows are written (no worker runs in these tests).
    t = await createTestApp({ backend, env: { SMTP_URL: 'smtp://127.0.0.1:2525' } });
    [alice, bob, staff, client] = await Promise.all([t.user({ admin: true }), t.user({ admin: true }), t.user({ staff: true }), t.user({ client: true })]);
    const first = await put(alice, { ...seeded, version: null });
    expect(first.statusCode, first.body).toBe(200);
  });
  afterAll(() => t?.close());

  const put = (user: TestUser, payload: object, key?: string) =>
    t.app.inject({ method: 'PUT', url: '/api/staff/business-settings', headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) }, payload });
  const decide = (user: TestUser, id: string, decision: 'approve' | 'reject' | 'withdraw', key?: string) =>
    t.app.inject({ method: 'POST', url: `/api/staff/business-settings/proposals/${id}/${decision}`, headers: { ...user.headers, ...(key ? { 'idempotency-key': key } : {}) } });
  const review = (user: TestUser) => t.app.inject({ method: 'GET', url: '/api/staff/business-settings/proposal', headers: user.headers });
  const settingsNow = async () => (await t.app.inject({ method: 'GET', url: '/api/staff/business-settings', headers: alice.headers })).json().data;

  async function feed(user: TestUser, cursor = '0') {
    const res = await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${cursor}`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return { page: SyncPage.parse(res.json().data), body: res.body };
  }
  /** Every admin of this database: each must hear of a proposal. */
  async function admins(): Promise<string[]> {
    const rows = await t.services.db.select({ uid: users.uid }).from(users).where(eq(users.isAdmin, true));
    return rows.map((r) => r.uid).sort();
  }
  const audits = (entityId: string) => t.services.db.select().from(auditLog).where(and(eq(auditLog.entityType, 'payment-details'), eq(auditLog.entityId, entityId))).orderBy(auditLog.id);
  const deliveriesOf = (key: string) => t.services.db.select().from(deliveries).where(eq(deliveries.eventKey, key));

  /** Proposes `details` as `user` from the settings' current version; the new pending proposal's id. */
  async function propose(user: TestUser, details: object, extra: object = {}) {
    const res = await put(user, { ...seeded, ...(await currentPayment()), ...extra, ...details, version: (await settingsNow()).version });
    expect(res.statusCode, res.body).toBe(200);
    const proposal = res.json().data.proposal;
    expect(proposal).toMatchObject({ status: 'pending', proposedBy: { uid: user.uid } });
    return proposal.id as string;
  }
  async function currentPayment() {
    const s = await settingsNow();
    return { accountHolder: s.accountHolder, bankName: s.bankName, accountNumber: s.accountNumber, bic: s.bic };
  }

  it('a save with new bank details is a proposal: clients keep the old ones, every admin is told in the app and by email, and it is audited', async () => {
    const { page: before } = await feed(client);
    const version = (await settingsNow()).version;
    const res = await put(alice, { ...seeded, ...swapped, version }, 'propose-1');
    expect(res.statusCode, res.body).toBe(200);
    const { settings, proposal } = res.json().data;
    expect(settings).toMatchObject({ version, accountNumber: seeded.accountNumber, paymentDetailsChangedAt: null });
    expect(proposal).toMatchObject({ status: 'pending', proposedBy: { uid: alice.uid, email: alice.email }, before: { accountNumber: seeded.accountNumber }, after: swapped, decidedBy: null });
    // The same key again: the stored answer, no second proposal.
    const replay = await put(alice, { ...seeded, ...swapped, version }, 'propose-1');
    expect(replay.json()).toEqual(res.json());
    expect(await t.services.db.select().from(paymentDetailsProposals).where(eq(paymentDetailsProposals.status, 'pending'))).toHaveLength(1);

    // Clients' How to pay data did not move, and nothing of the proposal is in their feed.
    const { page: after, body } = await feed(client, before.cursor);
    expect(after.businessSettings).toEqual([]);
    const { page: whole, body: wholeBody } = await feed(client);
    expect(whole.businessSettings).toEqual([expect.objectContaining({ accountNumber: seeded.accountNumber, paymentDetailsChangedAt: null })]);
    for (const text of [body, wholeBody]) expect(text).not.toContain(swapped.accountNumber);
    // Staff who are not admins, and clients, cannot read it either.
    expect((await review(staff)).statusCode).toBe(403);
    expect((await review(client)).statusCode).toBe(403);
    const seen = await review(bob);
    expect(seen.json().data).toMatchObject({ proposal: { id: proposal.id, after: swapped }, admins: (await admins()).length });

    // Every admin, the proposer too (a stolen account's owner learns of it), has a notification and an email row.
    const told = await t.services.db.select().from(notifications).where(and(inArray(notifications.userId, await admins()), sql`${notifications.message} LIKE ${`${alice.email} proposed new payment details%`}`));
    expect(told.map((n) => n.userId).sort()).toEqual(await admins());
    const rows = await deliveriesOf(`paymentDetailsProposal:${proposal.id}`);
    expect(rows.filter((r) => r.channel === 'email').map((r) => r.recipientUid).sort()).toEqual(await admins());
    expect(rows.every((r) => r.eventKind === 'paymentDetailsProposed' && r.state === 'queued')).toBe(true);
    // Essential: the email is due at once, not after the in-app wait.
    expect(rows.every((r) => Date.parse(r.dueAt) <= Date.now())).toBe(true);
    expect((await feed(bob)).page.notifications.some((n) => n.message.includes('proposed new payment details'))).toBe(true);
    expect((await feed(client)).body).not.toContain('proposed new payment details');

    const [audit] = await audits(proposal.id);
    expect(audit).toMatchObject({ action: 'payment-details-proposed', actorUid: alice.uid, before: { accountNumber: seeded.accountNumber }, after: swapped });

    // A non-admin cannot decide it; the proposer cannot approve or reject their own; another admin cannot withdraw it.
    expect((await decide(staff, proposal.id, 'approve')).statusCode).toBe(403);
    expect((await decide(client, proposal.id, 'approve')).statusCode).toBe(403);
    const own = await decide(alice, proposal.id, 'approve');
    expect(own.statusCode).toBe(403);
    expect(own.json().error).toEqual({ code: 'OWN_PROPOSAL', message: 'You proposed this change: a second admin must approve it.' });
    expect((await decide(alice, proposal.id, 'reject')).json().error.code).toBe('OWN_PROPOSAL');
    const notTheirs = await decide(bob, proposal.id, 'withdraw');
    expect(notTheirs.statusCode).toBe(403);
    expect(notTheirs.json().error.code).toBe('NOT_YOUR_PROPOSAL');
    // The database refuses a self-approval too, whatever the code above it does.
    await expect(
      t.services.db.update(paymentDetailsProposals).set({ status: 'approved', decidedByUid: alice.uid, decidedByEmail: alice.email }).where(eq(paymentDetailsProposals.id, proposal.id)),
    ).rejects.toThrow();
    // Another admin's pending proposal is not replaced by a second one.
    const other = await put(bob, { ...seeded, ...swapped, accountNumber: 'DE00 0000 0000 0000 0000 00', version });
    expect(other.statusCode).toBe(409);
    expect(other.json().error).toMatchObject({ code: 'PROPOSAL_PENDING', details: { proposal: { id: proposal.id } } });
    expect((await feed(client)).body).not.toContain(swapped.accountNumber);

    // The second admin approves: clients get the new details and the time of the change, live.
    const { page: beforeApproval } = await feed(client);
    const approved = await decide(bob, proposal.id, 'approve', 'approve-1');
    expect(approved.statusCode, approved.body).toBe(200);
    const changed = approved.json().data;
    expect(changed.settings).toMatchObject({ ...swapped, version: version + 1, paymentNote: seeded.paymentNote });
    // The time of the change is the approval's: the same transaction moved the row.
    expect(changed.settings.paymentDetailsChangedAt).toBe(changed.settings.updatedAt);
    expect(changed.proposal).toMatchObject({ status: 'approved', decidedBy: { uid: bob.uid } });
    expect((await decide(bob, proposal.id, 'approve', 'approve-1')).json()).toEqual(approved.json());
    const { page: clientSees } = await feed(client, beforeApproval.cursor);
    expect(clientSees.businessSettings).toEqual([changed.settings]);
    // Decided once: a second approval is 409.
    expect((await decide(bob, proposal.id, 'approve')).json().error.code).toBe('PROPOSAL_DECIDED');

    // The proposer hears of it, in the app and by email; the decision is audited.
    const [toldAlice] = await t.services.db.select().from(notifications).where(and(eq(notifications.userId, alice.uid), sql`${notifications.message} LIKE ${`${bob.email} approved%`}`));
    expect(toldAlice).toBeDefined();
    expect((await deliveriesOf(`paymentDetailsDecided:${proposal.id}`)).map((r) => [r.recipientUid, r.eventKind, r.channel])).toEqual([[alice.uid, 'paymentDetailsDecided', 'email']]);
    expect((await audits(proposal.id)).map((a) => [a.action, a.actorUid])).toEqual([
      ['payment-details-proposed', alice.uid],
      ['payment-details-approved', bob.uid],
    ]);
  });

  it('the proposer may replace or withdraw their own; another admin may reject it; the other fields save meanwhile', async () => {
    const start = await currentPayment();
    // A corrected proposal replaces the admin's own pending one.
    const first = await propose(alice, { bankName: 'Typo Bnk' });
    const second = await propose(alice, { bankName: 'Typo Bank' });
    const [replaced] = await t.services.db.select().from(paymentDetailsProposals).where(eq(paymentDetailsProposals.id, first));
    expect(replaced.status).toBe('replaced');
    // The same values again (the form saved for another field) keep the pending one and tell nobody twice.
    const again = await put(alice, { ...seeded, ...start, bankName: 'Typo Bank', paymentNote: 'Transfers take a day.', version: (await settingsNow()).version });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.proposal.id).toBe(second);
    // The note is not where clients pay: it saved, and reaches clients, while the bank waits.
    expect(again.json().data.settings).toMatchObject({ paymentNote: 'Transfers take a day.', bankName: start.bankName });
    expect((await feed(client)).page.businessSettings[0]).toMatchObject({ paymentNote: 'Transfers take a day.', bankName: start.bankName });
    expect((await deliveriesOf(`paymentDetailsProposal:${second}`)).filter((r) => r.recipientUid === bob.uid)).toHaveLength(1);

    const withdrawn = await decide(alice, second, 'withdraw');
    expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    expect(withdrawn.json().data.proposal).toMatchObject({ status: 'withdrawn', decidedBy: { uid: alice.uid } });
    expect(await currentPayment()).toEqual(start);
    expect((await review(bob)).json().data.proposal).toBeNull();

    const third = await propose(bob, { accountNumber: 'FR76 3000 6000 0112 3456 7890 189' });
    const rejected = await decide(alice, third, 'reject', 'reject-1');
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(rejected.json().data.proposal).toMatchObject({ status: 'rejected', decidedBy: { uid: alice.uid } });
    expect(await currentPayment()).toEqual(start);
    expect((await feed(client)).body).not.toContain('FR76 3000');
    const [toldBob] = await t.services.db.select().from(notifications).where(and(eq(notifications.userId, bob.uid), sql`${notifications.message} LIKE ${`${alice.email} rejected%`}`));
    expect(toldBob).toBeDefined();
    expect((await deliveriesOf(`paymentDetailsDecided:${third}`)).map((r) => r.recipientUid)).toEqual([bob.uid]);
    expect((await audits(second)).map((a) => a.action)).toEqual(['payment-details-proposed', 'payment-details-withdrawn']);
    expect((await audits(third)).map((a) => a.action)).toEqual(['payment-details-proposed', 'payment-details-rejected']);
    // A decided proposal cannot be decided again, whoever tries.
    expect((await decide(bob, third, 'withdraw')).json().error.code).toBe('PROPOSAL_DECIDED');
    expect((await decide(alice, 'not-a-uuid', 'approve')).statusCode).toBe(404);
  });

  it('a proposal made by an admin who has since lost the role cannot be approved', async () => {
    const carol = await t.user({ admin: true });
    const id = await propose(carol, { accountHolder: 'Someone Else Ltd' });
    await t.services.db.update(users).set({ isAdmin: false }).where(eq(users.uid, carol.uid));
    const res = await decide(alice, id, 'approve');
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('PROPOSER_NOT_ADMIN');
    expect((await decide(alice, id, 'reject')).statusCode).toBe(200);
  });
});
