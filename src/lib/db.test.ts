import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import { SYNCED_STORES } from '../../domain/sync.ts';
import { PortalDb, REPLICA_STORES, STORE_VERSIONS, SYNC_CURSOR_KEY, dbName } from './db.ts';

/** The stores the versions add up to: each entry changes or adds stores, null deletes one. */
function storesOfVersions(versions: Record<string, string | null>[]): Record<string, string> {
  const stores: Record<string, string> = {};
  for (const changed of versions)
    for (const [name, spec] of Object.entries(changed)) {
      if (spec === null) delete stores[name];
      else stores[name] = spec;
    }
  return stores;
}

/** A store as Dexie reads its spec: primary key first, then the indexes in any order. */
const normalized = (stores: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(stores).map(([name, spec]) => {
      const [key, ...indexes] = spec.split(',').map((part) => part.trim());
      return [name, [key, ...indexes.sort()]];
    }),
  );

describe('the replica stores and the synced tables\' declarations', () => {
  it('the versions add up to the stores the declarations give: a table declared without a new version fails here', () => {
    expect(normalized(storesOfVersions(STORE_VERSIONS))).toEqual(normalized(REPLICA_STORES));
    for (const name of Object.keys(SYNCED_STORES)) expect(REPLICA_STORES[name]).toBe(SYNCED_STORES[name]);
  });

  it('an opened replica has every synced table with its declared primary key and indexes', async () => {
    const db = new PortalDb(`stores-${Math.random()}`);
    await db.open();
    try {
      const opened = Object.fromEntries(db.tables.map((table) => [table.name, [table.schema.primKey.src, ...table.schema.indexes.map((index) => index.src).sort()]]));
      expect(opened).toEqual(normalized(REPLICA_STORES));
      expect(db.verno).toBe(STORE_VERSIONS.length);
    } finally {
      db.close();
      await Dexie.delete(db.name);
    }
  });
});

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

  it('keeps the id of a command queued before version 9 as its command id, so a resend carries the same key', async () => {
    const old = new Dexie(dbName(uid));
    old.version(8).stores({ outbox: '++seq, &id, status', meta: 'key' });
    await old.open();
    await old.table('outbox').add({ id: 'c1', kind: 'contact', status: 'pending', target: { table: 'contactRequests', id: 'c1' } });
    old.close();

    const db = new PortalDb(uid);
    await db.open();
    const command = await db.outbox.where('commandId').equals('c1').first();
    expect(command).toMatchObject({ commandId: 'c1', target: { table: 'contactRequests', id: 'c1' } });
    expect(command).not.toHaveProperty('id');
    db.close();
  });
});
