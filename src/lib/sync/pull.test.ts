import { afterEach, describe, expect, it, vi } from 'vitest';
import { type SyncPage, emptySyncPage as empty } from '../../../domain/sync.ts';
import { PortalDb } from '../db.ts';
import { localRequest, withReplica } from '../test-kit.ts';
import { isCatchingUp } from './catch-up.ts';
import { MAX_REJECTED_ROWS, PULL_PAGE_SIZES, pull, rereadFromStart } from './pull.ts';

const [FIRST_PAGE_SIZE, SECOND_PAGE_SIZE] = PULL_PAGE_SIZES;

// The real fetchSyncPage runs in the wire-level test below; the token is not what it is about.
vi.mock('../firebase.ts', () => ({ getIdToken: async () => 'token' }));

/** A request row as the server sends it; `over` bends one field. */
/** The one notification n1 with `message`, as a page carries it. */
const note = (message: string) => [{ id: 'n1', message, createdAt: '2026-01-01T00:00:00Z', userId: null }];

/** A request as the feed sends it, with `over` as given (broken values included). */
const requestRow = (id: string, over: Record<string, unknown> = {}) => ({ ...localRequest(id), ...over });

const profile = (filled: boolean) => ({
  uid: 'u1',
  email: 'a@b.c',
  firstName: 'A',
  lastName: 'B',
  isClient: true,
  isAdmin: false,
  isStaff: false,
  filledInitialForm: filled,
  initialForm: null,
  activityStatus: 'ACTIVE' as const,
  createdAt: '2026-01-01T00:00:00.000Z',
});

describe('pull', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened), () => 'u1');

  it('follows pages until hasMore is false, sending the stored cursor each time', async () => {
    const seen: string[] = [];
    const pages: Record<string, SyncPage> = {
      '0': { ...empty('5', true), notifications: note('hi') },
      '5': { ...empty('9'), contactRequests: [{ id: 'c1', subject: 's', message: 'm', createdAt: '2026-01-01T00:00:00Z', status: 'open' }] },
      '9': empty('9'),
    };
    const applied = await pull(db, async (cursor) => {
      seen.push(cursor);
      return pages[cursor];
    });
    expect(seen).toEqual(['0', '5']);
    expect(applied).toBe(2);
    expect(await db.notifications.count()).toBe(1);
    expect(await db.contactRequests.count()).toBe(1);
    await pull(db, async (cursor) => {
      seen.push(cursor);
      return pages[cursor];
    });
    expect(seen).toEqual(['0', '5', '9']);
  });

  it('asks for pages ahead of the writes, at most two not yet written, and applies them in order', async () => {
    const log: string[] = [];
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(db, 'transaction').mockImplementation(((...args: unknown[]) =>
      transaction(...args).then((result) => {
        log.push('committed');
        return result;
      })) as typeof db.transaction);
    const pages: Record<string, SyncPage> = {
      '0': { ...empty('5', true), notifications: note('one') },
      '5': { ...empty('9', true), notifications: note('two') },
      '9': { ...empty('12', true), notifications: note('three') },
      '12': empty('12'),
    };
    expect(
      await pull(db, async (cursor) => {
        log.push(`fetch ${cursor}`);
        return pages[cursor];
      }),
    ).toBe(3);
    // Each page is asked for as soon as the one before is read, while the first is written; the fourth waits
    // until the first is written (two ahead at most). One page ahead would be fetch, fetch, commit, fetch…
    expect(log).toEqual(['fetch 0', 'fetch 5', 'fetch 9', 'committed', 'fetch 12', 'committed', 'committed', 'committed']);
    // The later page's version of a row wins, and the cursor is the last page's.
    expect((await db.notifications.get('n1'))?.message).toBe('three');
    expect((await db.meta.get('syncCursor'))?.value).toBe('12');
  });

  it('asks a small first page, then larger ones, and a small one again when it starts over', async () => {
    const asked: string[] = [];
    const pages: Record<string, SyncPage> = { '0': empty('5', true), '5': empty('7', true), '7': empty('8', true), '8': empty('9', true), '9': empty('9') };
    await pull(db, async (cursor, limit) => {
      asked.push(`${cursor}/${limit}`);
      return pages[cursor];
    });
    expect(FIRST_PAGE_SIZE).toBeLessThan(SECOND_PAGE_SIZE);
    // The sizes in order, the last one repeated for every later page.
    const sizes = [0, 1, 2, 3, 4].map((i) => (PULL_PAGE_SIZES as readonly number[])[Math.min(i, PULL_PAGE_SIZES.length - 1)]);
    expect(asked).toEqual(['0', '5', '7', '8', '9'].map((cursor, i) => `${cursor}/${sizes[i]}`));
    expect(sizes.slice(0, 2)).toEqual([FIRST_PAGE_SIZE, SECOND_PAGE_SIZE]);
    // Every pull is a new catch-up: it starts small again.
    await pull(db, async (cursor, limit) => {
      asked.push(`${cursor}/${limit}`);
      return empty('9');
    });
    expect(asked.at(-1)).toBe(`9/${FIRST_PAGE_SIZE}`);
  });

  it('drops a page asked for before the stored cursor moved (a Retry started over) and goes on from the stored cursor', async () => {
    const asked: string[] = [];
    const page1 = { ...empty('5', true), notifications: note('hi') };
    const limits: number[] = [];
    const fetchPage = async (cursor: string, limit: number) => {
      asked.push(cursor);
      limits.push(limit);
      if (cursor === '0') return page1;
      // The first time, the Retry resets the cursor while this page is on its way (once the page before is in).
      if (asked.filter((c) => c === '5').length === 1) {
        await vi.waitFor(async () => expect((await db.meta.get('syncCursor'))?.value).toBe('5'));
        await rereadFromStart(db);
        return { ...empty('9'), contactRequests: [{ id: 'stale', subject: 's', message: 'm', createdAt: '2026-01-01T00:00:00Z', status: 'open' as const }] };
      }
      return { ...empty('9'), contactRequests: [{ id: 'c1', subject: 's', message: 'm', createdAt: '2026-01-01T00:00:00Z', status: 'open' as const }] };
    };
    expect(await pull(db, fetchPage)).toBe(3);
    expect(asked).toEqual(['0', '5', '0', '5']);
    // Starting over from the stored cursor is a new first page: small again.
    expect(limits).toEqual([FIRST_PAGE_SIZE, SECOND_PAGE_SIZE, FIRST_PAGE_SIZE, SECOND_PAGE_SIZE]);
    expect((await db.contactRequests.toArray()).map((c) => c.id)).toEqual(['c1']);
    expect((await db.meta.get('syncCursor'))?.value).toBe('9');
  });

  it('keeps the pages applied before one that fails: the next pull asks from the last applied cursor', async () => {
    const asked: string[] = [];
    const page1 = { ...empty('5', true), notifications: note('hi') };
    await expect(
      pull(db, async (cursor) => {
        asked.push(cursor);
        if (cursor === '0') return page1;
        throw new Error('connection lost');
      }),
    ).rejects.toThrow('connection lost');
    expect(await db.notifications.count()).toBe(1);
    expect((await db.meta.get('syncCursor'))?.value).toBe('5');
    await pull(db, async (cursor) => {
      asked.push(cursor);
      return empty('5');
    });
    expect(asked).toEqual(['0', '5', '5']);
  });

  it('is a catch-up from the first page after which more follow until it ends, failed or not; a one-page pull never is', async () => {
    // What matters is each page's commit: it is what refreshes the screens' live queries.
    const commits: boolean[] = [];
    const transaction = db.transaction.bind(db) as (...args: unknown[]) => Promise<unknown>;
    vi.spyOn(db, 'transaction').mockImplementation(((...args: unknown[]) =>
      transaction(...args).then((result) => {
        commits.push(isCatchingUp());
        return result;
      })) as typeof db.transaction);
    const pages: Record<string, SyncPage> = { '0': { ...empty('5', true), notifications: note('one') }, '5': { ...empty('9'), notifications: note('two') } };
    await pull(db, async (cursor) => pages[cursor]);
    expect(commits).toEqual([true, true]);
    expect(isCatchingUp()).toBe(false);

    await expect(
      pull(db, async (cursor) => {
        if (cursor === '9') return empty('12', true);
        throw new Error('connection lost');
      }),
    ).rejects.toThrow('connection lost');
    expect(commits.slice(2)).toEqual([true]);
    expect(isCatchingUp()).toBe(false);

    await pull(db, async () => empty('12'));
    expect(commits.slice(3)).toEqual([false]);
    expect(isCatchingUp()).toBe(false);
  });

  it('keeps an initial form filled offline while its command is unsent', async () => {
    await db.profile.put(profile(true));
    await db.outbox.add({
      commandId: 'cmd-1',
      kind: 'initialForm',
      label: 'Initial form',
      method: 'PUT',
      path: '/user/initial-form',
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 0,
      createdAt: 0,
      target: { table: 'profile', id: 'u1' },
    });
    await pull(db, async () => ({ ...empty('3'), profile: profile(false) }));
    expect((await db.profile.get('u1'))?.filledInitialForm).toBe(true);
    await db.outbox.clear();
    await pull(db, async () => ({ ...empty('4'), profile: profile(false) }));
    expect((await db.profile.get('u1'))?.filledInitialForm).toBe(false);
  });

  it('retires an optimistic row and its command once the server row created by that command arrives', async () => {
    await db.contactRequests.add({
      id: 'cmd-9',
      subject: 's',
      message: 'm',
      createdAt: '2026-01-01T00:00:00Z',
      status: 'open',
      pending: true,
      commandId: 'cmd-9',
    });
    await db.outbox.add({
      commandId: 'cmd-9',
      kind: 'contact',
      label: 's',
      method: 'POST',
      path: '/contact',
      status: 'sending',
      attempts: 1,
      nextAttemptAt: 0,
      createdAt: 0,
      target: { table: 'contactRequests', id: 'cmd-9' },
    });
    await db.contactRequests.add({
      id: 'other',
      subject: 'o',
      message: 'm',
      createdAt: '2026-01-01T00:00:00Z',
      status: 'open',
      pending: true,
      commandId: 'other',
    });
    await pull(db, async () => ({
      ...empty('7'),
      contactRequests: [{ id: 'srv-9', subject: 's', message: 'm', createdAt: '2026-01-01T00:00:01Z', status: 'open', commandId: 'cmd-9' }],
    }));
    expect((await db.contactRequests.toArray()).map((r) => r.id).sort()).toEqual(['other', 'srv-9']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('leaves rows alone when their commands are long done: only a queued command has an optimistic row to remove', async () => {
    // A catch-up brings every request the user made through the app, each with the command id that made it.
    const deletes = [db.requests, db.refunds, db.contactRequests, db.contactReplies].map((table) => vi.spyOn(table, 'bulkDelete'));
    await db.requests.add({ ...requestRow('kept'), productRequestType: 'TRACK_MASTER', status: 'Pending', refNo: null, pending: true, commandId: 'kept' });
    const rows = Array.from({ length: 50 }, (_, i) => requestRow(`srv-${i}`, { commandId: `done-${i}` }));
    expect(await pull(db, async () => ({ ...empty('8'), requests: rows }))).toBe(50);
    expect(await db.requests.count()).toBe(51);
    for (const spy of deletes) expect(spy).not.toHaveBeenCalled();
  });

  it('stores replies of support threads from either side and counts them in the pull', async () => {
    const replies = [
      { id: 'r1', threadId: 't1', author: 'staff' as const, message: 'We are on it', createdAt: '2026-01-02T09:00:00Z' },
      { id: 'r2', threadId: 't1', author: 'client' as const, message: 'Thanks', createdAt: '2026-01-02T10:00:00Z' },
    ];
    expect(await pull(db, async () => ({ ...empty('11'), contactReplies: replies }))).toBe(2);
    expect(await db.contactReplies.where('threadId').equals('t1').sortBy('createdAt')).toEqual(replies);
    // A later page with the same row (an edit, or a replay) replaces it rather than adding one.
    await pull(db, async () => ({ ...empty('12'), contactReplies: [{ ...replies[0], message: 'We are on it.' }] }));
    expect(await db.contactReplies.count()).toBe(2);
    expect((await db.contactReplies.get('r1'))?.message).toBe('We are on it.');
  });

  it('retires an optimistic reply and its command when the server reply created by that command arrives', async () => {
    await db.contactReplies.add({
      id: 'cmd-r',
      threadId: 't1',
      author: 'client',
      message: 'Hello',
      createdAt: '2026-01-02T10:00:00Z',
      pending: true,
      commandId: 'cmd-r',
    });
    await db.outbox.add({
      commandId: 'cmd-r',
      kind: 'contactReply',
      label: 'Reply: s',
      method: 'POST',
      path: '/contact/t1/replies',
      json: { reply: { message: 'Hello' } },
      status: 'sending',
      attempts: 1,
      nextAttemptAt: 0,
      createdAt: 0,
      target: { table: 'contactReplies', id: 'cmd-r' },
    });
    await db.contactReplies.add({
      id: 'cmd-other',
      threadId: 't1',
      author: 'client',
      message: 'Again',
      createdAt: '2026-01-02T10:01:00Z',
      pending: true,
      commandId: 'cmd-other',
    });
    await pull(db, async () => ({
      ...empty('13'),
      contactReplies: [{ id: 'srv-r', threadId: 't1', author: 'client', message: 'Hello', createdAt: '2026-01-02T10:00:05Z', commandId: 'cmd-r' }],
    }));
    expect((await db.contactReplies.toArray()).map((r) => r.id).sort()).toEqual(['cmd-other', 'srv-r']);
    expect((await db.contactReplies.get('srv-r'))?.pending).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('row-tolerant pull', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));
  afterEach(async () => {
    vi.unstubAllGlobals();
  });

  /** Answers GET /api/sync as the server would, one page per call, and records the URLs asked for. */
  function serveSync(...pages: unknown[]): string[] {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      return new Response(JSON.stringify({ data: pages.shift() }), { status: 200, headers: { 'content-type': 'application/json' } });
    });
    return asked;
  }

  it('applies every readable row of a page, keeps an unreadable one aside and moves the cursor', async () => {
    const asked = serveSync(
      {
        ...empty('42'),
        requests: [requestRow('r1'), requestRow('r2', { status: 'Escalated' }), requestRow('r3', { paid: 'a lot' })],
        deals: [{ id: 'd1', requestId: 'r1', productRequestType: 'NEW_TOOL', Created_Time: '2026-01-01T00:00:00Z', amount: 10, invoice: null, invoiceNumber: null }],
        notifications: note('hi'),
      },
      empty('42'),
    );
    expect(await pull(db)).toBe(4);
    expect((await db.requests.toArray()).map((r) => [r.id, r.status])).toEqual([
      ['r1', 'Pending'],
      ['r2', 'Escalated'],
    ]);
    expect((await db.deals.get('d1'))?.productRequestType).toBe('NEW_TOOL');
    expect(await db.notifications.count()).toBe(1);
    expect((await db.meta.get('rejectedRows'))?.value).toEqual([{ table: 'requests', id: 'r3', reason: expect.stringContaining('paid'), at: expect.any(Number) }]);
    // The next pull starts after the page, bad row and all: nothing wedges.
    await pull(db);
    expect(asked).toEqual([`/api/sync?cursor=0&limit=${FIRST_PAGE_SIZE}`, `/api/sync?cursor=42&limit=${FIRST_PAGE_SIZE}`]);
  });

  it('keeps only the latest rows set aside', async () => {
    const bad = (from: number) => Array.from({ length: 60 }, (_, i) => requestRow(`bad-${from + i}`, { paid: null }));
    await pull(db, async () => ({ ...empty('1'), requests: bad(0) }));
    await pull(db, async () => ({ ...empty('2'), requests: bad(60) }));
    const kept = (await db.meta.get('rejectedRows'))?.value as { id: string }[];
    expect(kept).toHaveLength(MAX_REJECTED_ROWS);
    expect(kept[0].id).toBe('bad-20');
    expect(kept.at(-1)?.id).toBe('bad-119');
  });

  it('sets aside a profile it cannot read and still applies the rest', async () => {
    await pull(db, async () => ({ ...empty('3'), profile: { uid: 'u1', email: 'a@b.c' }, requests: [requestRow('r1')] }));
    expect(await db.profile.count()).toBe(0);
    expect(await db.requests.count()).toBe(1);
    expect((await db.meta.get('rejectedRows'))?.value).toEqual([expect.objectContaining({ table: 'profile', id: 'u1' })]);
  });

  it('refuses a page whose envelope is broken: the cursor stays, the failure is reported', async () => {
    await expect(pull(db, async () => ({ hasMore: false, requests: [] }))).rejects.toThrow('cannot read');
    expect(await db.meta.get('syncCursor')).toBeUndefined();
  });
});
