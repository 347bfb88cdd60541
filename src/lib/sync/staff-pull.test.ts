import { describe, expect, it } from 'vitest';
import type { ClientFile, StaffSyncPage } from '../../../domain/staff.ts';
import { NetworkError } from '../api-errors.ts';
import { PortalDb } from '../db.ts';
import { clientFile, requestFile, staffRequest, withReplica } from '../test-kit.ts';
import { STAFF_COUNTS_KEY, pullStaffFeed } from './staff-pull.ts';

const counts = (threads: number) => ({ leads: 1, threads, refunds: 0, pending: 2, awaiting: 0, inProgress: 0, done: 0 });

/** The file of a pending request `id` of client `uid`. */
const fileOfRequest = (id: string, uid: string) => requestFile(staffRequest(id, { Created_Time: '2026-01-02T10:00:00.000Z', updatedAt: '2026-01-02T10:00:00.000Z', userId: uid }));

function page(cursor: string, parts: Partial<StaffSyncPage> = {}): StaffSyncPage {
  return { cursor, hasMore: false, counts: counts(0), clients: [], requests: [], keep: { clients: [], requests: [] }, ...parts };
}

describe('pullStaffFeed', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened), () => 'staff-1');

  it('writes each page with its cursor and the counts, following pages until hasMore is false', async () => {
    const seen: string[] = [];
    const pages: Record<string, StaffSyncPage> = {
      '0': page('4', { hasMore: true, clients: [clientFile('c1')], keep: { clients: ['c1'], requests: ['r1'] } }),
      '4': page('9', { requests: [fileOfRequest('r1', 'c1')], counts: counts(3), keep: { clients: ['c1'], requests: ['r1'] } }),
    };
    const applied = await pullStaffFeed(db, async (cursor) => {
      seen.push(cursor);
      return pages[cursor];
    });
    expect(seen).toEqual(['0', '4']);
    expect(applied).toBe(2);
    expect((await db.staffClients.get('c1'))?.data.client.firstName).toBe('Casey');
    expect((await db.staffRequests.get('r1'))?.data.request.userId).toBe('c1');
    expect((await db.meta.get(STAFF_COUNTS_KEY))?.value).toEqual(counts(3));
    expect((await db.meta.get('staffCursor'))?.value).toBe('9');
  });

  it('keeps a page and its cursor together: a page that fails to arrive leaves the last one applied, and the next pull resumes there', async () => {
    const seen: string[] = [];
    await expect(
      pullStaffFeed(db, async (cursor) => {
        seen.push(cursor);
        if (cursor === '0') return page('5', { hasMore: true, clients: [clientFile('c1')], keep: { clients: ['c1'], requests: [] } });
        throw new NetworkError('connection cut');
      }),
    ).rejects.toThrow('connection cut');
    expect(await db.staffClients.count()).toBe(1);
    expect((await db.meta.get('staffCursor'))?.value).toBe('5');

    await pullStaffFeed(db, async (cursor) => {
      seen.push(cursor);
      return page('8', { clients: [clientFile('c2')], keep: { clients: ['c1', 'c2'], requests: [] } });
    });
    expect(seen).toEqual(['0', '5', '5']);
    expect((await db.staffClients.toCollection().primaryKeys()).sort()).toEqual(['c1', 'c2']);
  });

  it('applies nothing of a page whose write fails: neither its files nor its cursor', async () => {
    // A client file without a client cannot give its key: the bulkPut throws inside the transaction.
    const broken = { ...clientFile('c9'), client: undefined } as unknown as ClientFile;
    await expect(pullStaffFeed(db, async () => page('3', { clients: [clientFile('c1'), broken], keep: { clients: ['c1'], requests: [] } }))).rejects.toThrow();
    expect(await db.staffClients.count()).toBe(0);
    expect(await db.meta.get('staffCursor')).toBeUndefined();
  });

  it('drops copies the server no longer keeps, but not one written while the page was on its way', async () => {
    await db.staffClients.bulkPut([
      { key: 'old', data: clientFile('old'), fetchedAt: 1 },
      { key: 'kept', data: clientFile('kept'), fetchedAt: 1 },
    ]);
    await db.staffRequests.put({ key: 'r-old', data: fileOfRequest('r-old', 'old'), fetchedAt: 1 });
    await pullStaffFeed(db, async () => {
      // Opened meanwhile: the server's keep list was made before it.
      await db.staffClients.put({ key: 'fresh', data: clientFile('fresh'), fetchedAt: Date.now() + 1 });
      return page('2', { keep: { clients: ['kept'], requests: [] } });
    });
    expect((await db.staffClients.toCollection().primaryKeys()).sort()).toEqual(['fresh', 'kept']);
    expect(await db.staffRequests.count()).toBe(0);
  });
});
