import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type SyncPage, emptySyncPage as empty } from '../../domain/sync.ts';
import { PortalDb } from './db.ts';
import { pull } from './sync.ts';

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
  beforeEach(async () => {
    db = new PortalDb('u1');
    await db.open();
  });
  afterEach(async () => {
    db.close();
    await db.delete();
  });

  it('follows pages until hasMore is false, sending the stored cursor each time', async () => {
    const seen: string[] = [];
    const pages: Record<string, SyncPage> = {
      '0': { ...empty('5', true), notifications: [{ id: 'n1', message: 'hi', createdAt: '2026-01-01T00:00:00Z', userId: null }] },
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

  it('keeps an initial form filled offline while its command is unsent', async () => {
    await db.profile.put(profile(true));
    await db.outbox.add({
      id: 'cmd-1',
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
      id: 'cmd-9',
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
      id: 'cmd-r',
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
