import { type SQL, sql } from 'drizzle-orm';
import { type DeliveryEventKind, type EventFacts, deliveryEvents, eventDefinition } from '../../domain/notify-events.ts';
import { requestRef, toolByBackendName } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';

/**
 * Writes the deliveries of an event in the caller's transaction (docs/decisions/029-deliveries.md): one row per
 * recipient and channel that their choices allow, so a change that rolls back sends nothing and a crash after the
 * commit loses nothing. The worker (worker.ts) sends them and checks the choices again at send time.
 */

export interface DeliveryEvent {
  kind: DeliveryEventKind;
  /** Names the row that caused it ("reply:<id>"): a rerun of the same change writes no second set. */
  key: string;
  /** One user, every staff member (staff events), or every user (a general notification, expanded by the worker). */
  to: { uid: string } | 'staff' | 'everyone';
  facts: EventFacts;
  /** The in-app notification written with it: read in the app means no email. */
  notificationId?: string;
}

export interface RecordOptions {
  /** Email off for this instance (EMAIL=off): no email rows at all. */
  email: boolean;
  /** How long a client's email waits for them to see it in the app (and gathers others into a digest). */
  emailDelaySeconds: number;
}

/** Essential events reach the client whatever they chose, by email at once. */
export const isEssential = (kind: string) => eventDefinition(kind)?.category === 'essential';

export async function recordDeliveries(tx: Db, event: DeliveryEvent, options: RecordOptions): Promise<void> {
  if (event.to === 'everyone') {
    // One row, not one per user: the worker expands it page by page (fanOut), so this transaction stays small.
    await tx.execute(sql`
      INSERT INTO deliveries (event_kind, event_key, recipient_uid, channel, facts, notification_id)
      VALUES (${event.kind}, ${event.key}, NULL, 'fanout', ${JSON.stringify(event.facts)}::jsonb, ${event.notificationId ?? null}::uuid)
      ON CONFLICT DO NOTHING`);
    return;
  }
  const who = event.to === 'staff' ? sql`(u.is_staff OR u.is_admin)` : sql`u.uid = ${event.to.uid}`;
  await insertFor(tx, event, who, options);
}

/**
 * The rows of `event` for the users `who` selects (an alias `u` of users): push where the user wants push and has a
 * device, email where email is on (or the event is essential) and the user has an address. A row already written
 * for the same event, user and channel stays as it is.
 */
export async function insertFor(tx: Db, event: Omit<DeliveryEvent, 'to'>, who: SQL, options: RecordOptions): Promise<void> {
  const definition = deliveryEvents[event.kind];
  const essential = definition.category === 'essential';
  const seen = 'seen' in definition ? definition.seen(event.facts) : null;
  // Essential mail goes at once; everything else waits for the person to see it in the app first.
  const emailDelay = essential ? 0 : options.emailDelaySeconds;
  await tx.execute(sql`
    INSERT INTO deliveries (event_kind, event_key, recipient_uid, channel, facts, notification_id, seen_kind, seen_id, due_at)
    SELECT ${event.kind}::text, ${event.key}::text, u.uid, c.channel, ${JSON.stringify(event.facts)}::jsonb, ${event.notificationId ?? null}::uuid,
      ${seen?.kind ?? null}::text, ${seen?.id ?? null}::text,
      CASE WHEN c.channel = 'email' THEN now() + make_interval(secs => ${emailDelay}::int) ELSE now() END
    FROM users u
    JOIN notification_preferences p ON p.user_id = u.uid
    CROSS JOIN (VALUES ('push'), ('email')) AS c(channel)
    WHERE ${who} AND ${switchOn(event.kind)}
      AND ((c.channel = 'push' AND p.push AND EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = u.uid))
        OR (c.channel = 'email' AND ${options.email}::boolean AND u.email IS NOT NULL AND (p.email OR ${essential}::boolean)))
    ON CONFLICT DO NOTHING`);
}

/** The preference (alias `p`) that lets the event through: its category's switch, or the staff event's own. */
export function switchOn(kind: string): SQL {
  const definition = eventDefinition(kind);
  switch (definition?.category) {
    case 'general':
      return sql`p.general_updates`;
    case 'personal':
      return sql`p.personal_updates`;
    case 'essential':
      return sql`true`;
    case 'staff':
      return sql`(u.is_staff OR u.is_admin) AND p.${sql.identifier(column(definition.staffSwitch ?? 'staff'))}`;
    default:
      return sql`false`;
  }
}

/** staffLeads → staff_leads: the column of a preference field. */
const column = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A request's facts for its events: the id, the tool page that shows it, and the reference the client knows it by. */
export function requestFacts(row: { id: string; productRequestType: string; refNo?: number | null }): EventFacts {
  return { requestId: row.id, tool: toolByBackendName(row.productRequestType)?.id, ref: requestRef(row) ?? undefined };
}
