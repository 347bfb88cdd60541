import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LooseSyncPage, SYNCED_STORES, SyncPage, emptySyncPage, readSyncPage, syncContract, syncedProfile, syncedTable, syncedTables } from './sync.ts';

/** A table of its own, declared as the recipe says (docs/architecture.md, "A new synced table"). */
const Bookmark = z.object({ id: z.string(), label: z.string().min(1) });
const withBookmarks = syncContract(syncedProfile, { ...syncedTables, bookmarks: syncedTable({ row: Bookmark, indexes: 'id, label', addedLater: true }) });

describe('the feed contract derived from the declarations', () => {
  it('a declared table is a list of the page, of the empty page, of the reader and a store of the replica', () => {
    expect(withBookmarks.lists).toContain('bookmarks');
    expect(withBookmarks.empty('3').bookmarks).toEqual([]);
    expect(withBookmarks.stores.bookmarks).toBe('id, label');

    const sent = { ...withBookmarks.empty('4'), bookmarks: [{ id: 'b1', label: 'Bank' }, { id: 'b2', label: '' }] };
    // The server's page is strict; the client's reading sets the bad row aside and keeps the rest.
    expect(withBookmarks.page.parse({ ...sent, bookmarks: [sent.bookmarks[0]] }).bookmarks).toEqual([{ id: 'b1', label: 'Bank' }]);
    expect(() => withBookmarks.page.parse(sent)).toThrow();

    const { page, rejected } = withBookmarks.read(withBookmarks.loosePage.parse(sent));
    expect(page.bookmarks).toEqual([{ id: 'b1', label: 'Bank' }]);
    expect(rejected).toEqual([{ table: 'bookmarks', id: 'b2', reason: expect.stringContaining('label') }]);
  });

  it('a table added later defaults to empty for a page from an older server; an original one is required', () => {
    const { bookmarks: _absent, ...older } = withBookmarks.empty('5');
    expect(withBookmarks.loosePage.parse(older).bookmarks).toEqual([]);
    const { deals: _deals, ...withoutDeals } = withBookmarks.empty('5');
    expect(withBookmarks.loosePage.safeParse(withoutDeals).success).toBe(false);
  });

  it('keeps the wire format of GET /api/sync: its keys in order, profile a single object or null', () => {
    expect(Object.keys(emptySyncPage('0'))).toEqual([
      'cursor',
      'hasMore',
      'profile',
      'requests',
      'deals',
      'refunds',
      'notifications',
      'contactRequests',
      'contactReplies',
      'files',
      'trackingLinks',
      'notificationReads',
      'businessSettings',
      'notificationPreferences',
    ]);
    expect(Object.keys(SyncPage.shape)).toEqual(Object.keys(emptySyncPage('0')));
    expect(Object.keys(LooseSyncPage.shape)).toEqual(Object.keys(emptySyncPage('0')));
    expect(readSyncPage(LooseSyncPage.parse({ ...emptySyncPage('1'), profile: { uid: 7 } })).rejected).toEqual([{ table: 'profile', id: undefined, reason: expect.any(String) }]);
    expect(SYNCED_STORES).toMatchObject({ profile: 'uid', requests: 'id, status, Created_Time, [productRequestType+Created_Time]', businessSettings: 'id' });
  });
});
