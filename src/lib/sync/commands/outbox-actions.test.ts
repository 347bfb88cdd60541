import { beforeEach, describe, expect, it } from 'vitest';
import type { InitialFormFields } from '../../../../domain/schemas.ts';
import { findTool } from '../../../../domain/tools.ts';
import type { CommandBodies } from './kind.ts';
import { commandKinds, queueContact, queueContactReply, queueInitialForm, queuePurchase, queueRefund } from './kinds.ts';
import { type CommandKind, type OutboxCommand, PortalDb } from '../../db.ts';
import { withReplica } from '../../test-kit.ts';
import { markNotificationsRead } from '../../notification-reads.ts';
import { changePreferences } from '../../notification-preferences.ts';
import { markRequestSeen, seenMarkKey } from '../../seen-marks.ts';
import { DEFAULT_PREFERENCES, PREFERENCE_FIELDS } from '../../../../domain/notification-preferences.ts';
import { InvalidEditError, discardCommand, editCommand, readCommandBody } from './outbox-actions.ts';
import { queueStaffNote, queueStaffReply, readStaffCommand } from './staff-kinds.ts';

const UID = 'u1';
const form: InitialFormFields = { moneyLost: 100, lastFundsTransfer: Date.UTC(2026, 0, 1), fraudType: 'CRYPTO', fraudUrl: 'https://x.example', name: 'A' };
const trackMaster = findTool('track-master')!;
const webIntelligence = findTool('web-intelligence')!;
const trackMasterValues = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: 'Met online.' };
const webValues = { websiteName: 'Shop', websiteUrl: 'https://shop.example', fraudType: 'phishing', description: 'A fake shop.', amountLost: 250 };

/** What the device shows of a command before it is sent: its optimistic row, or for staff writes the page's copy from the outbox. */
type Shown = (db: PortalDb, id: string) => Promise<unknown>;

interface KindCase<K extends CommandKind> {
  queue(db: PortalDb): Promise<string>;
  shown: Shown;
  /** A body the feature's schema refuses, and one it takes, with what the row then shows. */
  bad(body: CommandBodies[K]): unknown;
  good(body: CommandBodies[K]): CommandBodies[K];
  shownAfterEdit: unknown;
}

/** A staff write has no row: the client file's page shows it from the outbox, read back with its kind's schema. */
const staffCopy =
  (kind: 'staffReply' | 'staffNote'): Shown =>
  async (db) => {
    const write = (await db.outbox.toArray()).map(readStaffCommand).find((w) => w?.kind === kind && w.command.target.id === 'c1');
    return write ? (write.kind === 'staffReply' ? write.message : write.body) : undefined;
  };

/** Two notifications in the replica: the read marker takes the time of the one named. */
const seen = { id: '6d1f2c1e-3c59-4d39-9d7a-0c2b8f1e9a01', message: 'Older', createdAt: '2026-01-02T10:00:00.000Z', userId: null };
const newer = { id: '6d1f2c1e-3c59-4d39-9d7a-0c2b8f1e9a02', message: 'Newer', createdAt: '2026-01-03T10:00:00.000Z', userId: null };

/** The switches that differ from a new account's, by name: what the Notifications tab shows changed. */
const changedSwitches: Shown = async (db) => {
  const row = await db.notificationPreferences.get(db.uid);
  const changed = PREFERENCE_FIELDS.filter((f) => row && row[f] !== DEFAULT_PREFERENCES[f]);
  return changed.length ? changed.join(',') : undefined;
};
const openedRequest = { id: '6d1f2c1e-3c59-4d39-9d7a-0c2b8f1e9a03', updatedAt: '2026-01-04T10:00:00.000Z' };

const cases: { [K in CommandKind]: KindCase<K> } = {
  purchase: {
    queue: (db) => queuePurchase(db, trackMaster, { values: trackMasterValues, files: [] }),
    shown: async (db, id) => (await db.requests.get(id))?.requestDetails.TRACK_MASTER_fraudUrl,
    bad: (body) => ({ ...body, values: { ...body.values, fraudType: 'not a fraud type' } }),
    good: (body) => ({ ...body, values: { ...body.values, fraudUrl: 'https://fixed.example' } }),
    shownAfterEdit: 'https://fixed.example',
  },
  refund: {
    queue: (db) => queueRefund(db, { tool: 'TRACK_MASTER', processId: 'r1', refundRequestType: 'FULL', reason: 'why' }, 'Track Master'),
    shown: async (db, id) => (await db.refunds.get(id))?.reason,
    bad: (body) => ({ refundRequest: { ...body.refundRequest, reason: '   ' } }),
    good: (body) => ({ refundRequest: { ...body.refundRequest, reason: 'Nothing was delivered.', refundRequestType: 'PARTIAL' } }),
    shownAfterEdit: 'Nothing was delivered.',
  },
  contact: {
    queue: (db) => queueContact(db, 'Subject', 'Message'),
    shown: async (db, id) => (await db.contactRequests.get(id))?.subject,
    bad: (body) => ({ contactRequest: { ...body.contactRequest, subject: 'x'.repeat(151) } }),
    good: (body) => ({ contactRequest: { ...body.contactRequest, subject: 'A better subject' } }),
    shownAfterEdit: 'A better subject',
  },
  contactReply: {
    queue: (db) => queueContactReply(db, 't1', 'Subject', 'Reply'),
    shown: async (db, id) => (await db.contactReplies.get(id))?.message,
    bad: () => ({ reply: { message: '' } }),
    good: () => ({ reply: { message: 'A clearer reply' } }),
    shownAfterEdit: 'A clearer reply',
  },
  initialForm: {
    queue: (db) => queueInitialForm(db, UID, form),
    shown: async (db) => {
      const profile = await db.profile.get(UID);
      return profile?.filledInitialForm ? profile.initialForm?.fraudUrl : undefined;
    },
    bad: (body) => ({ initialForm: { ...body.initialForm, moneyLost: -5 } }),
    good: (body) => ({ initialForm: { ...body.initialForm, fraudUrl: 'https://fixed.example' } }),
    shownAfterEdit: 'https://fixed.example',
  },
  notificationsRead: {
    queue: async (db) => {
      await db.notifications.bulkPut([seen, newer]);
      return (await markNotificationsRead(db, seen))!;
    },
    shown: async (db) => (await db.notificationReads.get(db.uid))?.readUpTo,
    bad: () => ({ notificationId: 'not-an-id' }),
    good: () => ({ notificationId: newer.id }),
    shownAfterEdit: newer.createdAt,
  },
  notificationPreferences: {
    queue: async (db) => (await changePreferences(db, { email: false }))!,
    shown: changedSwitches,
    bad: () => ({ email: 'off' }),
    good: () => ({ email: false, generalUpdates: false }),
    shownAfterEdit: 'generalUpdates,email',
  },
  seen: {
    queue: async (db) => (await markRequestSeen(db, openedRequest))!,
    shown: async (db) => (await db.meta.get(seenMarkKey({ kind: 'request', id: openedRequest.id })))?.value,
    bad: () => ({ kind: 'request', id: openedRequest.id, updatedAt: 'yesterday' }),
    good: () => ({ kind: 'request', id: openedRequest.id, updatedAt: '2026-01-05T10:00:00.000Z' }),
    // The mark is the time of what was shown, kept when the command was queued; an edit of the body does not move it.
    shownAfterEdit: openedRequest.updatedAt,
  },
  staffReply: {
    queue: (db) => queueStaffReply(db, 'c1', 't1', 'Subject', 'Reply'),
    shown: staffCopy('staffReply'),
    bad: () => ({ reply: { message: 'x'.repeat(2001) } }),
    good: () => ({ reply: { message: 'We called the bank.' } }),
    shownAfterEdit: 'We called the bank.',
  },
  staffNote: {
    queue: (db) => queueStaffNote(db, 'c1', 'Note'),
    shown: staffCopy('staffNote'),
    // A note stays on the client it was written on.
    bad: (body) => ({ ...body, clientUid: 'someone-else' }),
    good: (body) => ({ ...body, body: 'Called back, no answer.' }),
    shownAfterEdit: 'Called back, no answer.',
  },
};

const kinds = Object.keys(cases) as CommandKind[];

describe('outbox actions', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));
  beforeEach(async () => {
    await db.profile.put({
      uid: UID,
      email: 'a@b.test',
      firstName: null,
      lastName: null,
      isClient: true,
      isAdmin: false,
      isStaff: true,
      filledInitialForm: false,
      initialForm: null,
      activityStatus: 'ACTIVE',
      createdAt: '2026-01-01T00:00:00.000Z',
    });
  });

  const commandOf = async (id: string): Promise<OutboxCommand> => (await db.outbox.where('commandId').equals(id).first())!;

  it.each(kinds)('Discard of a %s takes back what it showed', async (kind) => {
    const id = await cases[kind].queue(db);
    expect(await cases[kind].shown(db, id)).toBeDefined();
    await discardCommand(db, (await commandOf(id)).seq!);
    expect(await db.outbox.count()).toBe(0);
    expect(await cases[kind].shown(db, id)).toBeUndefined();
  });

  it('Discard of an initial form lets the user fill it again, and keeps what a pull brought', async () => {
    const id = await queueInitialForm(db, UID, form);
    await discardCommand(db, (await commandOf(id)).seq!);
    expect(await db.profile.get(UID)).toMatchObject({ filledInitialForm: false, initialForm: null, isStaff: true });
  });

  it('keeps the profile as a pull left it when another initial form still waits', async () => {
    const first = await queueInitialForm(db, UID, form);
    await queueInitialForm(db, UID, { ...form, name: 'B' });
    await discardCommand(db, (await commandOf(first)).seq!);
    expect((await db.profile.get(UID))?.initialForm).toMatchObject({ name: 'B' });
  });

  it.each(kinds)("Edit of a %s refuses what the feature's schema refuses, and changes nothing", async (kind) => {
    const id = await cases[kind].queue(db);
    const before = await commandOf(id);
    await db.outbox.update(before.seq!, { status: 'failed', error: 'Refused' });
    const body = readCommandBody(before)!;
    expect(body).not.toBeNull();
    const shownBefore = await cases[kind].shown(db, id);
    // The bad body is what an older app or a hand-made edit could produce: it bypasses the type on purpose.
    await expect(editCommand(db, before.seq!, kind, cases[kind].bad(body as never) as never)).rejects.toBeInstanceOf(InvalidEditError);
    expect(await commandOf(id)).toMatchObject({ commandId: id, status: 'failed', json: before.json });
    expect(await cases[kind].shown(db, id)).toEqual(shownBefore);
  });

  it.each(kinds)('Edit of a %s replaces the command with a new key and shows the new values on its row', async (kind) => {
    const id = await cases[kind].queue(db);
    const before = await commandOf(id);
    await db.outbox.update(before.seq!, { status: 'failed', error: 'Refused', attempts: 2 });
    const edited = cases[kind].good(readCommandBody(before) as never);
    await editCommand(db, before.seq!, kind, edited);
    const after = (await db.outbox.get(before.seq!))!;
    expect(after).toMatchObject({ kind, status: 'pending', attempts: 0, nextAttemptAt: 0, target: before.target });
    expect(after.error).toBeUndefined();
    expect(after.commandId).not.toBe(id);
    expect(readCommandBody(after)).toEqual(edited);
    expect(await cases[kind].shown(db, after.target.id)).toEqual(cases[kind].shownAfterEdit);
  });

  it('opens a stored body that breaks a rule (an older app queued it) in its form, and saves only once it is fixed', async () => {
    const id = await queueContact(db, 'x'.repeat(151), 'Message');
    const command = await commandOf(id);
    const body = commandKinds.contact.read(command);
    expect(body?.contactRequest.subject).toHaveLength(151);
    await expect(editCommand(db, command.seq!, 'contact', body!)).rejects.toThrow('subject must be at most 150 characters');
    await editCommand(db, command.seq!, 'contact', { contactRequest: { subject: 'Short', message: 'Message' } });
    expect((await db.outbox.get(command.seq!))?.label).toBe('Message: Short');
  });

  // Read from the command in memory: fake-indexeddb stores a test DOM's File as a plain object, where a browser keeps the Blob.
  it('reads a multipart purchase back with its files, and an edit sends its values as form fields with the files kept', () => {
    const file = new File(['%PDF-1.4'], 'proof.pdf', { type: 'application/pdf' });
    const files = [{ field: 'relevantInformation', name: file.name, type: file.type, blob: file }];
    const stored = commandKinds.purchase.payload({ path: `/${webIntelligence.hrefBackend}` }, { values: webValues, files });
    expect(stored.json).toBeUndefined();
    const command: OutboxCommand = { commandId: 'p1', kind: 'purchase', label: 'x', method: 'POST', path: `/${webIntelligence.hrefBackend}`, ...stored, status: 'failed', attempts: 1, nextAttemptAt: 0, createdAt: 0, target: { table: 'requests', id: 'p1' } };
    const body = commandKinds.purchase.read(command)!;
    expect(body).toEqual({ values: webValues, files });
    expect(commandKinds.purchase.validate(command, { ...body, values: { ...body.values, amountLost: -1 } }).success).toBe(false);
    const edited = commandKinds.purchase.payload(command, { ...body, values: { ...body.values, amountLost: 300 } });
    expect(edited.form?.fields.amountLost).toBe('300');
    expect(edited.form?.files).toEqual(files);
  });
});
