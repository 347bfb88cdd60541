import { beforeEach, describe, expect, it } from 'vitest';
import { countUnread } from '../../domain/notification-reads.ts';
import { emptySyncPage } from '../../domain/sync.ts';
import { commandKinds } from './sync/commands/kinds.ts';
import { PortalDb } from './db.ts';
import { notificationRow, withReplica } from './test-kit.ts';
import { markNotificationsRead } from './notification-reads.ts';
import { discardCommand } from './sync/commands/outbox-actions.ts';
import { applyPage } from './sync/pull.ts';

const UID = 'reader';
const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12)).toISOString();
const marker = (day: number) => ({ userId: UID, readUpTo: at(day), updatedAt: at(day) });

describe('notification read marker in the replica', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened), () => UID);
  beforeEach(async () => {
    await db.notifications.bulkPut([notificationRow(1), notificationRow(2), notificationRow(3)]);
  });

  const unread = async () => countUnread(await db.notifications.toArray(), (await db.notificationReads.get(UID))?.readUpTo);

  it('counts everything as unread without a marker and what is after it with one', async () => {
    expect(await unread()).toBe(3);
    await applyPage(db, { ...emptySyncPage('5'), notificationReads: [marker(1)] });
    expect(await unread()).toBe(2);
  });

  it('marks read offline at once: the command is queued with the newest id and the badge count drops to 0', async () => {
    await applyPage(db, { ...emptySyncPage('5'), notificationReads: [marker(1)] });
    const id = await markNotificationsRead(db, notificationRow(3));
    expect(id).not.toBeNull();
    expect(await unread()).toBe(0);
    const [command] = await db.outbox.toArray();
    expect(command).toMatchObject({ commandId: id, kind: 'notificationsRead', method: 'PUT', path: '/notifications/read', json: { notificationId: notificationRow(3).id }, status: 'pending' });
    // Nothing new: opening the bell again queues nothing.
    expect(await markNotificationsRead(db, notificationRow(3))).toBeNull();
    expect(await db.outbox.count()).toBe(1);
  });

  it('keeps the later marker when a pull brings an older one before the command is sent', async () => {
    await markNotificationsRead(db, notificationRow(3));
    await applyPage(db, { ...emptySyncPage('6'), notificationReads: [marker(1)] });
    expect((await db.notificationReads.get(UID))?.readUpTo).toBe(at(3));
    // A newer one from another device moves it on.
    await applyPage(db, { ...emptySyncPage('7'), notificationReads: [marker(9)] });
    expect((await db.notificationReads.get(UID))?.readUpTo).toBe(at(9));
  });

  it("takes the server's answer, never moving back, and Discard puts back the marker it replaced", async () => {
    await applyPage(db, { ...emptySyncPage('5'), notificationReads: [marker(1)] });
    await markNotificationsRead(db, notificationRow(3));
    const [command] = await db.outbox.toArray();
    await commandKinds.notificationsRead.confirm(db, command, marker(2));
    expect((await db.notificationReads.get(UID))?.readUpTo).toBe(at(3));

    await discardCommand(db, command.seq!);
    expect(await db.outbox.count()).toBe(0);
    expect((await db.notificationReads.get(UID))?.readUpTo).toBe(at(1));
    expect(await unread()).toBe(2);
  });

  it('sets aside a marker row it cannot read, and applies the rest of the page', async () => {
    const { readSyncPage, LooseSyncPage } = await import('../../domain/sync.ts');
    const loose = LooseSyncPage.parse({ ...emptySyncPage('8'), notificationReads: [{ userId: UID, readUpTo: 'yesterday', updatedAt: at(1) }] });
    const { page, rejected } = readSyncPage(loose);
    expect(page.notificationReads).toEqual([]);
    expect(rejected).toEqual([expect.objectContaining({ table: 'notificationReads', id: UID })]);
    // A server before read state sends no list at all: still a valid page.
    const { notificationReads: _absent, ...older } = emptySyncPage('9');
    expect(readSyncPage(LooseSyncPage.parse(older)).page.notificationReads).toEqual([]);
  });
});
