import { z } from 'zod';
import {
  DEFAULT_PREFERENCES,
  NotificationPreferences,
  NotificationPreferencesBody,
  PREFERENCE_FIELDS,
  type PreferenceField,
} from '../../domain/notification-preferences.ts';
import type { CommandKindDef } from './sync/commands/kind.ts';
import type { OutboxCommand, PortalDb } from './db.ts';
import { queueCommand } from './sync/commands/outbox.ts';

/**
 * The user's notification switches in the replica (domain/notification-preferences.ts). A change is a command
 * carrying only the switches it changed; the row shows it at once, and a pull or another command's answer never
 * takes back a switch whose command still waits (the server applies them in order, so the device's view is what
 * the server will hold once they are sent).
 */

/** A stored body read back by shape: a partial record of switches. */
const StoredSwitches = z.object(Object.fromEntries(PREFERENCE_FIELDS.map((f) => [f, z.boolean().optional()])) as Record<PreferenceField, z.ZodOptional<z.ZodBoolean>>);
/** What the switches a command changed said before it: Discard puts them back. */
const SwitchesBefore = z.record(z.string(), z.boolean());

/** The switches a body names, without the absent ones. */
function namedSwitches(body: NotificationPreferencesBody): Partial<Record<PreferenceField, boolean>> {
  return Object.fromEntries(Object.entries(body).filter(([, v]) => typeof v === 'boolean')) as Partial<Record<PreferenceField, boolean>>;
}

/** The row as a new account has it on the server, for a device that has not pulled it yet. */
export function defaultPreferences(userId: string): NotificationPreferences {
  return { userId, ...DEFAULT_PREFERENCES, updatedAt: new Date(0).toISOString() };
}

/** The preference commands still waiting, oldest first, other than `except` (the one being confirmed or discarded). */
async function waitingChanges(db: PortalDb, except?: number): Promise<Partial<Record<PreferenceField, boolean>>[]> {
  const commands = await db.outbox.filter((c) => c.kind === 'notificationPreferences' && c.seq !== except).sortBy('seq');
  return commands.flatMap((c) => {
    const body = StoredSwitches.safeParse(c.json);
    return body.success ? [namedSwitches(body.data)] : [];
  });
}

/**
 * The server's row (from a pull or an answer) with the switches of commands still waiting laid over it, so a
 * switch the user just turned never flips back while its command is on its way.
 */
export async function withWaitingSwitches(db: PortalDb, row: NotificationPreferences, except?: number): Promise<NotificationPreferences> {
  const waiting = await waitingChanges(db, except);
  return waiting.reduce<NotificationPreferences>((shown, change) => ({ ...shown, ...change }), row);
}

/** "Turn these switches": sent as PUT /api/user/notification-preferences with only them, shown at once. */
export const notificationPreferencesKind: CommandKindDef<NotificationPreferencesBody> = {
  read(command) {
    const body = StoredSwitches.safeParse(command.json);
    return body.success && Object.keys(namedSwitches(body.data)).length > 0 ? body.data : null;
  },
  validate: (_command, body) => NotificationPreferencesBody.safeParse(body),
  payload: (_command, body) => ({ json: namedSwitches(body) }),
  async show(db, { target }, body) {
    const row = (await db.notificationPreferences.get(target.id)) ?? defaultPreferences(target.id);
    await db.notificationPreferences.put({ ...row, ...namedSwitches(body) });
  },
  /** The switches go back to what they said before, except those a later command still waiting turns (its own Discard handles them). */
  async revert(db, command) {
    const before = SwitchesBefore.safeParse(command.revert);
    const row = await db.notificationPreferences.get(command.target.id);
    if (!before.success || !row) return;
    const later = Object.assign({}, ...(await waitingChanges(db, command.seq)));
    const back = Object.fromEntries(Object.entries(before.data).filter(([field]) => !(field in later)));
    await db.notificationPreferences.put({ ...row, ...back });
  },
  answer: NotificationPreferences,
  async confirm(db, command, data) {
    const row = NotificationPreferences.parse(data);
    await db.notificationPreferences.put(await withWaitingSwitches(db, row, command.seq));
  },
};

/**
 * Turns switches (e.g. `{ email: false }`): queued with only them, so a device offline with other changes of its
 * own does not undo them when both are sent. The command's id, or null when nothing would change.
 */
export async function changePreferences(db: PortalDb, change: NotificationPreferencesBody): Promise<string | null> {
  const switches = namedSwitches(change);
  const row = (await db.notificationPreferences.get(db.uid)) ?? defaultPreferences(db.uid);
  const changed = Object.fromEntries(Object.entries(switches).filter(([field, value]) => row[field as PreferenceField] !== value));
  if (Object.keys(changed).length === 0) return null;
  const revert = Object.fromEntries(Object.keys(changed).map((field) => [field, row[field as PreferenceField]]));
  const commandId = crypto.randomUUID();
  const command: Omit<OutboxCommand, 'json' | 'form' | 'seq' | 'status' | 'attempts' | 'nextAttemptAt' | 'createdAt' | 'error'> = {
    commandId,
    kind: 'notificationPreferences',
    label: 'Notification settings',
    method: 'PUT',
    path: '/user/notification-preferences',
    target: { table: 'notificationPreferences', id: db.uid },
    revert,
  };
  await queueCommand(db, notificationPreferencesKind, command, changed as NotificationPreferencesBody);
  return commandId;
}
