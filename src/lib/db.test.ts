import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { PortalDb, SYNC_CURSOR_KEY, dbName } from './db.ts';

describe('the replica schema', () => {
  const uid = `upgrade-${Math.random()}`;
  afterEach(async () => {
    await Dexie.delete(dbName(uid));
  });

  it('reads the feed again from the start, once, when a replica from before status history opens (version 7)', async () => {
    // A replica as version 5 left it: caught up to seq 42, with a request the feed sent without its history.
    const old = new Dexie(dbName(uid));
    old.version(5).stores({ requests: 'id, productRequestType, status, Created_Time, [productRequestType+Created_Time]', meta: 'key' });
    await old.open();
    await old.table('meta').bulkPut([
      { key: SYNC_CURSOR_KEY, value: '42' },
      { key: 'lastSyncedAt', value: 1 },
    ]);
    await old.table('requests').put({ id: 'r1', productRequestType: 'TRACK_MASTER', status: 'Pending', Created_Time: '2026-01-01T00:00:00.000Z' });
    old.close();

    const db = new PortalDb(uid);
    await db.open();
    expect(await db.meta.get(SYNC_CURSOR_KEY)).toBeUndefined();
    // Only the cursor goes: the rows stay on screen until the pull puts them again.
    expect(await db.meta.get('lastSyncedAt')).toEqual({ key: 'lastSyncedAt', value: 1 });
    expect(await db.requests.count()).toBe(1);
    await db.meta.put({ key: SYNC_CURSOR_KEY, value: '43' });
    db.close();

    const again = new PortalDb(uid);
    await again.open();
    expect((await again.meta.get(SYNC_CURSOR_KEY))?.value).toBe('43');
    again.close();
  });
});
