import { describe, expect, it } from 'vitest';
import type { NotificationPreferences } from '../../domain/notification-preferences.ts';
import { emptySyncPage } from '../../domain/sync.ts';
import { PortalDb } from './db.ts';
import { changePreferences, defaultPreferences } from './notification-preferences.ts';
import { commandKinds } from './sync/commands/kinds.ts';
import { discardCommand } from './sync/commands/outbox-actions.ts';
import { applyPage } from './sync/pull.ts';
import { withReplica } from './test-kit.ts';

const UID = 'prefs-user';
const serverRow = (changes: Partial<NotificationPreferences> = {}, at = '2026-01-02T10:00:00.000Z'): NotificationPreferences => ({
  ...defaultPreferences(UID),
  updatedAt: at,
  ...changes,
});

describe('notification preferences in the replica', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened), () => UID);
  const shown = async () => (await db.notificationPreferences.get(UID))!;

  it('shows a switch at once and queues only that switch as PUT /user/notification-preferences', async () => {
    await applyPage(db, { ...emptySyncPage('1'), notificationPreferences: [serverRow()] });
    const id = await changePreferences(db, { email: false });
    expect(id).not.toBeNull();
    expect((await shown()).email).toBe(false);
    const [command] = await db.outbox.toArray();
    expect(command).toMatchObject({
      commandId: id,
      kind: 'notificationPreferences',
      method: 'PUT',
      path: '/user/notification-preferences',
      json: { email: false },
      target: { table: 'notificationPreferences', id: UID },
      revert: { email: true },
    });
    // Turning it to what it already says queues nothing.
    expect(await changePreferences(db, { email: false })).toBeNull();
    expect(await db.outbox.count()).toBe(1);
  });

  it('works before the first pull brought the row: the defaults with the switch turned', async () => {
    await changePreferences(db, { lockScreenDetails: true });
    expect(await shown()).toMatchObject({ lockScreenDetails: true, generalUpdates: true, email: true });
  });

  it('keeps a switch whose command waits when a pull brings the older row, and takes the rest of the row', async () => {
    await applyPage(db, { ...emptySyncPage('1'), notificationPreferences: [serverRow()] });
    await changePreferences(db, { generalUpdates: false });
    // Another device turned email off meanwhile: the pull brings that, with generalUpdates still on.
    await applyPage(db, { ...emptySyncPage('2'), notificationPreferences: [serverRow({ email: false }, '2026-01-03T10:00:00.000Z')] });
    expect(await shown()).toMatchObject({ generalUpdates: false, email: false, updatedAt: '2026-01-03T10:00:00.000Z' });
  });

  it("confirms with the server's row, keeping the switches of commands queued after it", async () => {
    await applyPage(db, { ...emptySyncPage('1'), notificationPreferences: [serverRow()] });
    await changePreferences(db, { email: false });
    await changePreferences(db, { personalUpdates: false });
    const [first] = await db.outbox.orderBy('seq').toArray();
    // The answer to the first command knows nothing of the second yet.
    await db.transaction('rw', [db.outbox, db.notificationPreferences], async () => {
      await commandKinds.notificationPreferences.confirm(db, first, serverRow({ email: false }, '2026-01-04T10:00:00.000Z'));
      await db.outbox.delete(first.seq!);
    });
    expect(await shown()).toMatchObject({ email: false, personalUpdates: false, updatedAt: '2026-01-04T10:00:00.000Z' });
  });

  it('Discard puts back what the command changed, but not a switch a later command still turns', async () => {
    await applyPage(db, { ...emptySyncPage('1'), notificationPreferences: [serverRow()] });
    await changePreferences(db, { email: false, generalUpdates: false });
    await changePreferences(db, { email: true });
    const [first] = await db.outbox.orderBy('seq').toArray();
    await discardCommand(db, first.seq!);
    // generalUpdates goes back; email stays as the later command (still waiting) shows it.
    expect(await shown()).toMatchObject({ generalUpdates: true, email: true });
    expect(await db.outbox.count()).toBe(1);
  });

  it('reads back a stored body by shape and refuses an empty one', () => {
    const base = { commandId: 'c', kind: 'notificationPreferences' as const, label: '', method: 'PUT' as const, path: '/user/notification-preferences', status: 'pending' as const, attempts: 0, nextAttemptAt: 0, createdAt: 0, target: { table: 'notificationPreferences' as const, id: UID } };
    expect(commandKinds.notificationPreferences.read({ ...base, json: { staffLeads: false } })).toEqual({ staffLeads: false });
    expect(commandKinds.notificationPreferences.read({ ...base, json: {} })).toBeNull();
    expect(commandKinds.notificationPreferences.validate(base, {}).success).toBe(false);
  });
});
