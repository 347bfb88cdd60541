import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LooseSyncPage, SyncPage, readSyncPage } from '../../domain/sync.ts';
import { contactReplies, contactRequests, deals, files, notifications, productRequests, refunds, staffNotes, staffWatches, users } from '../db/schema.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp, type TestUser } from '../test-helper.ts';
import { nextChanges } from '../sync/feed-sources.ts';
import { centsFromDollars } from '../../domain/money.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[sync.test] PostgreSQL run skipped: ${skip}`);

const TOOL = 'TRACK_MASTER';

describe.each(backends())('GET /api/sync (%s)', (backend) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ backend });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function pull(user: TestUser, cursor?: string, limit?: number) {
    const qs = new URLSearchParams();
    if (cursor !== undefined) qs.set('cursor', cursor);
    if (limit !== undefined) qs.set('limit', String(limit));
    const res = await t.app.inject({ method: 'GET', url: `/api/sync?${qs}`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return { res, page: SyncPage.parse(res.json().data) };
  }

  /** Pulls page by page as the client does; returns every page. */
  async function pullAll(user: TestUser, cursor: string, limit: number) {
    const pages: SyncPage[] = [];
    for (let i = 0; i < 1000; i++) {
      const { page } = await pull(user, cursor, limit);
      pages.push(page);
      cursor = page.cursor;
      if (!page.hasMore) return pages;
    }
    throw new Error('pull never ended');
  }

  const idsOf = (pages: SyncPage[]) => ({
    requests: pages.flatMap((p) => p.requests.map((r) => r.id)),
    deals: pages.flatMap((p) => p.deals.map((r) => r.id)),
    refunds: pages.flatMap((p) => p.refunds.map((r) => r.id)),
    notifications: pages.flatMap((p) => p.notifications.map((r) => r.id)),
    contactRequests: pages.flatMap((p) => p.contactRequests.map((r) => r.id)),
    contactReplies: pages.flatMap((p) => p.contactReplies.map((r) => r.id)),
    files: pages.flatMap((p) => p.files.map((r) => r.id)),
    profiles: pages.filter((p) => p.profile).length,
  });

  async function seedFor(uid: string, n = 1) {
    const out = {
      requests: [] as string[],
      deals: [] as string[],
      refunds: [] as string[],
      contacts: [] as string[],
      replies: [] as string[],
      files: [] as string[],
      notes: [] as string[],
    };
    for (let i = 0; i < n; i++) {
      const [req] = await t.services.db
        .insert(productRequests)
        .values({ userId: uid, toolId: 'funds-tracking', productRequestType: TOOL, totalCents: centsFromDollars(100), requestDetails: { n: i } })
        .returning();
      out.requests.push(req.id);
      const [deal] = await t.services.db.insert(deals).values({ requestId: req.id, userId: uid, productRequestType: TOOL, amountCents: centsFromDollars(50) }).returning();
      out.deals.push(deal.id);
      const [refund] = await t.services.db
        .insert(refunds)
        .values({ userId: uid, requestId: req.id, tool: TOOL, refundRequestType: 'FULL', reason: `r${i}` })
        .returning();
      out.refunds.push(refund.id);
      const [contact] = await t.services.db.insert(contactRequests).values({ userId: uid, subject: `s${i}`, message: 'm' }).returning();
      out.contacts.push(contact.id);
      const [reply] = await t.services.db
        .insert(contactReplies)
        .values({ threadId: contact.id, userId: uid, author: 'staff', authorUid: 'staff-uid', message: `answer ${i}` })
        .returning();
      out.replies.push(reply.id);
      const [note] = await t.services.db.insert(notifications).values({ userId: uid, message: `for you ${i}` }).returning();
      out.notes.push(note.id);
      const [file] = await t.services.db
        .insert(files)
        .values({ userId: uid, kind: 'general', originalName: `f${i}.pdf`, storedName: `x${i}`, contentType: 'application/pdf', size: 3, sha256: 'abc' })
        .returning();
      out.files.push(file.id);
    }
    return out;
  }

  it('an empty pull after catching up is small and carries no rows', async () => {
    const u = await t.user();
    const first = await pull(u);
    // The first pull brings the profile (created on the first call) and the notification read marker made with it.
    expect(first.page.profile).toMatchObject({ uid: u.uid, isClient: false });
    expect(first.page.notificationReads).toEqual([expect.objectContaining({ userId: u.uid })]);
    const { res, page } = await pull(u, first.page.cursor);
    expect(page).toEqual({
      cursor: first.page.cursor,
      hasMore: false,
      profile: null,
      requests: [],
      deals: [],
      refunds: [],
      notifications: [],
      contactRequests: [],
      contactReplies: [],
      files: [],
      trackingLinks: [],
      notificationReads: [],
      businessSettings: [],
      notificationPreferences: [],
    });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(Buffer.byteLength(res.body)).toBeLessThan(280);
  });

  it('a pull after inserts returns them with a new cursor, and the next pull returns nothing', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    const seeded = await seedFor(u.uid, 2);
    const { page } = await pull(u, start.cursor);
    expect(BigInt(page.cursor)).toBeGreaterThan(BigInt(start.cursor));
    expect(page.hasMore).toBe(false);
    expect(page.requests.map((r) => r.id)).toEqual(seeded.requests);
    expect(page.deals.map((r) => r.id)).toEqual(seeded.deals);
    expect(page.refunds.map((r) => r.id)).toEqual(seeded.refunds);
    expect(page.contactRequests.map((r) => r.id)).toEqual(seeded.contacts);
    expect(page.contactReplies.map((r) => r.id)).toEqual(seeded.replies);
    expect(page.contactReplies[0]).toEqual({ id: seeded.replies[0], threadId: seeded.contacts[0], author: 'staff', message: 'answer 0', createdAt: expect.any(String) });
    expect(page.contactRequests[0]).toMatchObject({ status: 'open' });
    expect(page.refunds[0]).toMatchObject({ status: 'requested', amount: null, note: null, decidedAt: null });
    expect(page.files.map((r) => r.id)).toEqual(seeded.files);
    expect(page.notifications.map((r) => r.id)).toEqual(expect.arrayContaining(seeded.notes));
    expect(page.requests[0]).toMatchObject({ productRequestType: TOOL, totalAmount: 100, leftToPay: 100, requestDetails: { n: 0 } });
    const again = await pull(u, page.cursor);
    expect(idsOf([again.page])).toEqual({ requests: [], deals: [], refunds: [], notifications: [], contactRequests: [], contactReplies: [], files: [], profiles: 0 });
    expect(again.page.cursor).toBe(page.cursor);
  });

  it('an update brings the row again, once', async () => {
    const u = await t.user();
    const seeded = await seedFor(u.uid);
    const { page } = await pull(u);
    await t.services.db.update(productRequests).set({ status: 'In Progress' }).where(eq(productRequests.id, seeded.requests[0]));
    const { page: next } = await pull(u, page.cursor);
    expect(next.requests).toHaveLength(1);
    expect(next.requests[0]).toMatchObject({ id: seeded.requests[0], status: 'In Progress' });
    expect(next.deals).toHaveLength(0);
  });

  it('the profile comes again when it changes (initial form)', async () => {
    const u = await t.user();
    const { page } = await pull(u);
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/user/initial-form',
      headers: u.headers,
      payload: { initialForm: { moneyLost: 1, lastFundsTransfer: Date.UTC(2025, 0, 1), fraudType: 'CRYPTO', fraudUrl: 'https://x.example', name: 'Sy Nc' } },
    });
    expect(res.statusCode).toBe(201);
    const { page: next } = await pull(u, page.cursor);
    expect(next.profile).toMatchObject({ uid: u.uid, filledInitialForm: true, firstName: 'Sy' });
  });

  it('paging with limit/hasMore loses nothing and repeats nothing, in seq order', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    const seeded = await seedFor(u.uid, 7); // 49 rows in seven tables
    for (const limit of [1, 5, 13, 49]) {
      const pages = await pullAll(u, start.cursor, limit);
      const ids = idsOf(pages);
      expect(ids.requests, `limit ${limit}`).toEqual(seeded.requests);
      expect(ids.deals).toEqual(seeded.deals);
      expect(ids.refunds).toEqual(seeded.refunds);
      expect(ids.contactRequests).toEqual(seeded.contacts);
      expect(ids.contactReplies).toEqual(seeded.replies);
      expect(ids.files).toEqual(seeded.files);
      expect(ids.notifications.filter((id) => seeded.notes.includes(id))).toEqual(seeded.notes);
      for (const p of pages) {
        const rows = idsOf([p]);
        const count =
          rows.profiles +
          rows.requests.length +
          rows.deals.length +
          rows.refunds.length +
          rows.notifications.length +
          rows.contactRequests.length +
          rows.contactReplies.length +
          rows.files.length;
        expect(count).toBeLessThanOrEqual(limit);
        if (p.hasMore) expect(count).toBe(limit);
      }
      // Cursors only go up.
      const cursors = pages.map((p) => BigInt(p.cursor));
      expect([...cursors].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(cursors);
    }
  });

  it('sums the next changes up by table in the database: which tables, where the page ends, whether more follow', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    await seedFor(u.uid, 2); // a request, deal, refund, contact, reply, notification and file, twice, in that order
    const six = await nextChanges(t.services.db, u.uid, start.cursor, 6);
    // The seventh change, a file, is not in the page: it only says that more follow.
    expect([...six.tables].sort()).toEqual(['contactReplies', 'contactRequests', 'deals', 'notifications', 'refunds', 'requests']);
    expect(six.hasMore).toBe(true);
    expect(six.upper).toBe((await pull(u, start.cursor, 6)).page.cursor);
    const all = await nextChanges(t.services.db, u.uid, start.cursor, 14);
    expect([...all.tables].sort()).toEqual(['contactReplies', 'contactRequests', 'deals', 'files', 'notifications', 'refunds', 'requests']);
    expect(all.hasMore).toBe(false);
    expect(all.upper).toBe((await pull(u, start.cursor, 14)).page.cursor);
    expect(await nextChanges(t.services.db, u.uid, all.upper!, 5)).toEqual({ tables: new Set(), upper: null, hasMore: false });
  });

  it('rows written between pages are not lost', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    const first = await seedFor(u.uid, 2);
    const { page: p1 } = await pull(u, start.cursor, 3);
    expect(p1.hasMore).toBe(true);
    const second = await seedFor(u.uid, 1);
    const rest = await pullAll(u, p1.cursor, 3);
    const ids = idsOf([p1, ...rest]);
    expect(ids.requests).toEqual([...first.requests, ...second.requests]);
    expect(ids.files).toEqual([...first.files, ...second.files]);
    expect(ids.deals).toEqual([...first.deals, ...second.deals]);
  });

  it('another user’s rows never appear', async () => {
    const [a, b] = await Promise.all([t.user(), t.user()]);
    const theirs = await seedFor(b.uid, 2);
    const pages = await pullAll(a, '0', 1000);
    const body = JSON.stringify(pages);
    for (const id of [...theirs.requests, ...theirs.deals, ...theirs.refunds, ...theirs.contacts, ...theirs.replies, ...theirs.files, ...theirs.notes]) {
      expect(body).not.toContain(id);
    }
    expect(body).not.toContain(b.uid);
    expect(pages.filter((p) => p.profile).every((p) => p.profile?.uid === a.uid)).toBe(true);
  });

  it('a thread\'s state and its replies come as they change; a decided refund comes with its decision', async () => {
    const u = await t.user();
    const seeded = await seedFor(u.uid);
    const { page } = await pull(u);
    await t.services.db.update(contactRequests).set({ status: 'closed', awaitingSince: null }).where(eq(contactRequests.id, seeded.contacts[0]));
    await t.services.db
      .update(refunds)
      .set({ status: 'approved', decidedCents: centsFromDollars(40), decisionNote: 'Half of it.', decidedAt: new Date().toISOString(), decidedBy: 'staff-uid' })
      .where(eq(refunds.id, seeded.refunds[0]));
    const { res, page: next } = await pull(u, page.cursor);
    expect(next.contactRequests).toEqual([expect.objectContaining({ id: seeded.contacts[0], status: 'closed' })]);
    expect(next.refunds).toEqual([expect.objectContaining({ id: seeded.refunds[0], status: 'approved', amount: 40, note: 'Half of it.', decidedAt: expect.any(String) })]);
    // Staff-side fields never reach the client.
    expect(res.body).not.toContain('staff-uid');
    expect(res.body).not.toContain('decidedBy');
    expect(res.body).not.toContain('awaitingSince');
    expect(res.body).not.toContain('"version"');
  });

  it('staff notes and staff watches about a client are never part of their feed', async () => {
    const [client, staff] = await Promise.all([t.user({ client: true }), t.user({ staff: true })]);
    const seeded = await seedFor(client.uid);
    const { page: start } = await pull(client);
    const [note] = await t.services.db
      .insert(staffNotes)
      .values({ subjectUid: client.uid, requestId: seeded.requests[0], authorUid: staff.uid, authorEmail: staff.email, body: 'secret-staff-note' })
      .returning();
    await t.services.db.insert(staffWatches).values({ staffUid: staff.uid, kind: 'client', entityId: client.uid, subjectUid: client.uid });
    await t.services.db.insert(staffWatches).values({ staffUid: staff.uid, kind: 'request', entityId: seeded.requests[0], subjectUid: client.uid });
    const { res, page } = await pull(client, start.cursor);
    expect(idsOf([page])).toEqual({ requests: [], deals: [], refunds: [], notifications: [], contactRequests: [], contactReplies: [], files: [], profiles: 0 });
    for (const secret of [note.id, 'secret-staff-note', staff.uid, staff.email]) expect(res.body).not.toContain(secret);
    const all = JSON.stringify(await pullAll(client, '0', 1000));
    for (const secret of [note.id, 'secret-staff-note', staff.uid, staff.email]) expect(all).not.toContain(secret);
  });

  it('general notifications appear for everyone, personal ones only for their user', async () => {
    const [a, b] = await Promise.all([t.user(), t.user()]);
    const [ca, cb] = await Promise.all([pull(a), pull(b)]);
    const [general] = await t.services.db.insert(notifications).values({ userId: null, message: 'Scheduled maintenance' }).returning();
    const [personal] = await t.services.db.insert(notifications).values({ userId: a.uid, message: 'Just for A' }).returning();
    const pa = await pull(a, ca.page.cursor);
    const pb = await pull(b, cb.page.cursor);
    expect(pa.page.notifications.map((n) => n.id)).toEqual([general.id, personal.id]);
    expect(pa.page.notifications[0]).toMatchObject({ message: 'Scheduled maintenance', userId: null });
    expect(pb.page.notifications.map((n) => n.id)).toEqual([general.id]);
  });

  it('only general uploads are synced: attachments, final reports and invoices are not', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    const base = { userId: u.uid, storedName: 's', contentType: 'application/pdf', size: 1, sha256: 'h' };
    const rows = await t.services.db
      .insert(files)
      .values([
        { ...base, kind: 'general', originalName: 'mine.pdf' },
        { ...base, kind: 'attachment', originalName: 'proof.pdf' },
        { ...base, kind: 'final', originalName: 'report.pdf' },
        { ...base, kind: 'invoice', originalName: 'invoice.pdf' },
      ])
      .returning();
    const { page } = await pull(u, start.cursor);
    expect(page.files.map((f) => f.name)).toEqual(['mine.pdf']);
    expect(JSON.stringify(page)).not.toContain(rows[1].id);
    expect(JSON.stringify(page)).not.toContain(rows[2].id);
    expect(JSON.stringify(page)).not.toContain(rows[3].id);
  });

  it('a request comes with its status history from the staff’s status changes: statuses and times only, no one’s name', async () => {
    const [u, other, staff] = await Promise.all([t.user({ client: true }), t.user({ client: true }), t.user({ staff: true })]);
    const { page: start } = await pull(u);
    const move = async (id: string, body: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url: `/api/staff/requests/${id}/transition`, headers: staff.headers, payload: body });
      expect(res.statusCode, res.body).toBe(200);
    };
    const make = async (uid: string) => (await t.services.db.insert(productRequests).values({ userId: uid, toolId: 'bank-dispute', productRequestType: 'BANK_DISPUTE' }).returning())[0];
    const [mine, theirs] = await Promise.all([make(u.uid), make(other.uid)]);
    for (const req of [mine, theirs]) {
      await move(req.id, { to: 'Waiting for actions', version: 1, totalAmount: 500 });
      await move(req.id, { to: 'In Progress', version: 2 });
    }
    await move(mine.id, { to: 'Rejected', version: 3, reason: 'We cannot act in your country.' });

    const { page } = await pull(u, start.cursor);
    expect(page.requests.map((r) => r.id)).toEqual([mine.id]);
    const history = page.requests[0].statusHistory!;
    expect(history.map((h) => h.status)).toEqual(['Pending', 'Waiting for actions', 'In Progress', 'Rejected']);
    expect(history[0].at).toBe(new Date(mine.createdAt).toISOString());
    expect(history.map((h) => Date.parse(h.at))).toEqual(history.map((h) => Date.parse(h.at)).sort((a, b) => a - b));
    expect(Object.keys(history[1]).sort()).toEqual(['at', 'status']);
    const text = JSON.stringify(page);
    expect(text).not.toContain(staff.email);
    expect(text).not.toContain(staff.uid);
    expect(text).not.toContain(theirs.id);
    // The other client's history is theirs alone: three statuses, none of the first client's rejection.
    const { page: theirPage } = await pull(other);
    expect(theirPage.requests.find((r) => r.id === theirs.id)!.statusHistory!.map((h) => h.status)).toEqual(['Pending', 'Waiting for actions', 'In Progress']);
  });

  it('a status written without an audit row (the demo seed) still ends the history, as of the row’s last change', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    const [req] = await t.services.db.insert(productRequests).values({ userId: u.uid, toolId: 'x', productRequestType: TOOL, status: 'Done', totalCents: centsFromDollars(10) }).returning();
    const { page } = await pull(u, start.cursor);
    expect(page.requests[0].statusHistory).toEqual([
      { status: 'Pending', at: new Date(req.createdAt).toISOString() },
      { status: 'Done', at: new Date(req.updatedAt).toISOString() },
    ]);
  });

  it('a page of many requests brings each with its own history and every field a request has', async () => {
    const [u, staff] = await Promise.all([t.user({ client: true }), t.user({ staff: true })]);
    const { page: start } = await pull(u);
    const made = await t.services.db
      .insert(productRequests)
      .values(Array.from({ length: 300 }, (_, i) => ({ userId: u.uid, toolId: 'x', productRequestType: TOOL, requestDetails: { n: i }, commandId: i === 7 ? 'cmd-7' : null })))
      .returning();
    const moved = made[123];
    const res = await t.app.inject({ method: 'POST', url: `/api/staff/requests/${moved.id}/transition`, headers: staff.headers, payload: { to: 'Waiting for actions', version: 1, totalAmount: 80 } });
    expect(res.statusCode, res.body).toBe(200);
    const { page } = await pull(u, start.cursor, 5000);
    expect(page.requests).toHaveLength(300);
    const byId = new Map(page.requests.map((r) => [r.id, r]));
    expect(byId.get(moved.id)!.statusHistory!.map((h) => h.status)).toEqual(['Pending', 'Waiting for actions']);
    expect(byId.get(moved.id)).toMatchObject({ status: 'Waiting for actions', totalAmount: 80, paid: 0, leftToPay: 80 });
    expect(byId.get(made[0].id)).toEqual({
      id: made[0].id,
      productRequestType: TOOL,
      refNo: made[0].refNo,
      Created_Time: new Date(made[0].createdAt).toISOString(),
      status: 'Pending',
      contractSigned: false,
      totalAmount: null,
      paid: 0,
      leftToPay: null,
      requestDetails: { n: 0 },
      attachments: [],
      updatedAt: new Date(made[0].updatedAt).toISOString(),
      rejectionReason: null,
      statusHistory: [{ status: 'Pending', at: new Date(made[0].createdAt).toISOString() }],
    });
    expect(byId.get(made[7].id)?.commandId).toBe('cmd-7');
  });

  it('purchase attachments come with their size, SHA-256 and upload time; another user’s never', async () => {
    const [u, other] = await Promise.all([t.user(), t.user()]);
    const { page: start } = await pull(u);
    const attach = async (uid: string, sha256: string) => {
      const [req] = await t.services.db.insert(productRequests).values({ userId: uid, toolId: 'x', productRequestType: TOOL }).returning();
      const [file] = await t.services.db
        .insert(files)
        .values({ userId: uid, kind: 'attachment', requestId: req.id, field: 'proof', originalName: 'proof.pdf', storedName: 's', contentType: 'application/pdf', size: 1234, sha256 })
        .returning();
      await t.services.db
        .update(productRequests)
        .set({ attachments: [{ id: file.id, field: 'proof', name: 'proof.pdf' }] })
        .where(eq(productRequests.id, req.id));
      return file;
    };
    const mine = await attach(u.uid, 'a'.repeat(64));
    const theirs = await attach(other.uid, 'b'.repeat(64));
    const { page } = await pull(u, start.cursor);
    expect(page.requests).toHaveLength(1);
    expect(page.requests[0].attachments).toEqual([{ id: mine.id, field: 'proof', name: 'proof.pdf', size: 1234, sha256: 'a'.repeat(64), uploadedAt: new Date(mine.createdAt).toISOString() }]);
    expect(JSON.stringify(page)).not.toContain(theirs.sha256);
    expect(JSON.stringify(page)).not.toContain(theirs.id);
  });

  it('a deal’s invoice is a signed download link, not the stored file id', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    const [req] = await t.services.db.insert(productRequests).values({ userId: u.uid, toolId: 'x', productRequestType: TOOL }).returning();
    const [inv] = await t.services.db
      .insert(files)
      .values({ userId: u.uid, kind: 'invoice', originalName: 'i.pdf', storedName: 'i', contentType: 'application/pdf', size: 1, sha256: 'h' })
      .returning();
    await t.services.db.insert(deals).values({ requestId: req.id, userId: u.uid, productRequestType: TOOL, amountCents: centsFromDollars(10), invoiceUrl: inv.id });
    const { page } = await pull(u, start.cursor);
    expect(page.deals).toHaveLength(1);
    expect(page.deals[0].invoice).toMatch(new RegExp(`^/api/download/${inv.id}\\.\\d+\\.[A-Za-z0-9_-]{43}$`));
  });

  it('a page as sent is exactly what the full response schema makes of it: no field more, none missing', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    await seedFor(u.uid, 3);
    const { res } = await pull(u, start.cursor);
    const sent = res.json();
    expect(sent.data.requests).toHaveLength(3);
    // The requests' rows skip the server's check (serializeSyncPage): they must already be what the schema would send.
    expect(z.object({ data: SyncPage }).encode(sent)).toEqual(sent);
  });

  it('a request the schema cannot read (details nested deeper than a screen shows) still goes out: the client sets it aside instead of every pull failing', async () => {
    const u = await t.user();
    const { page: start } = await pull(u);
    const seeded = await seedFor(u.uid, 2);
    await t.services.db.update(productRequests).set({ requestDetails: { nested: { deeper: 1 } } as never }).where(eq(productRequests.id, seeded.requests[0]));
    const res = await t.app.inject({ method: 'GET', url: `/api/sync?cursor=${start.cursor}`, headers: u.headers });
    expect(res.statusCode, res.body).toBe(200);
    const { page, rejected } = readSyncPage(LooseSyncPage.parse(res.json().data));
    expect(rejected).toEqual([expect.objectContaining({ table: 'requests', id: seeded.requests[0] })]);
    expect(page.requests.map((r) => r.id)).toEqual([seeded.requests[1]]);
    expect(BigInt(page.cursor)).toBeGreaterThan(BigInt(start.cursor));
  });

  it('a cursor from the future returns nothing and keeps the cursor', async () => {
    const u = await t.user();
    const { page } = await pull(u, '999999999999');
    expect(page).toMatchObject({ cursor: '999999999999', hasMore: false, profile: null, requests: [] });
  });

  it('rejects a bad cursor or limit with 400', async () => {
    const u = await t.user();
    for (const qs of ['cursor=-1', 'cursor=abc', 'cursor=1.5', 'cursor=1234567890123456789', 'limit=0', 'limit=5001', 'limit=many']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/sync?${qs}`, headers: u.headers });
      expect(res.statusCode, qs).toBe(400);
      expect(res.json().error.message).toEqual(expect.any(String));
    }
  });

  it('the first pull of a new account holds its lead profile', async () => {
    const u = await t.user();
    const { page } = await pull(u, '0');
    expect(page.profile).toMatchObject({ uid: u.uid, email: u.email, isClient: false, filledInitialForm: false });
    const [row] = await t.services.db.select().from(users).where(eq(users.uid, u.uid));
    expect(BigInt(page.cursor)).toBeGreaterThanOrEqual(BigInt(row.seq));
  });
});
