import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import { DELIVERY_EVENT_KINDS, DIGEST_LINE, type DeliveryEventKind, type EventFacts, OPEN_LINK, PRODUCT_NAME, emailSubject, eventDefinition } from '../../domain/notify-events.ts';
import type { PushPayload } from '../../domain/push.ts';
import type { VapidKeys } from '../config.ts';
import { type Db, rowsOf } from '../db/client.ts';
import type { EmailContent, MailOutcome } from './mailer.ts';
import { type PushResult, sendPush, topicFor } from './web-push.ts';
import { type RecordOptions, insertFor, isEssential, switchOn } from './record.ts';

/**
 * The one delivery worker (docs/decisions/029-deliveries.md). Rows are claimed with FOR UPDATE SKIP LOCKED and
 * marked `sending` with a lease in a transaction that commits before anything is sent, so two instances never
 * send the same row. A row still `sending` when its lease ends belongs to a sender that died between sending and
 * recording: it becomes `unknown` and is never sent again by itself (an admin may retry it), so a crash never
 * sends twice. Timeouts, network errors, 429 and 5xx are retried with backoff, at most MAX_ATTEMPTS times.
 */

export const MAX_ATTEMPTS = 6;
/** Seconds before the 2nd … 6th attempt (±20 %). */
const BACKOFF_SECONDS = [30, 120, 600, 1800, 7200];
/** Longer than any send's timeout (push 10 s, SMTP 20 s), so a live sender always records before it ends. */
export const LEASE_SECONDS = 60;
const FANOUT_PAGE = 1000;
/** Sends in flight for a batch of a fan-out's rows. */
const BULK_CONCURRENCY = 4;

/** An email as the worker asks for it; the adapter adds the Message-ID's host, composes and sends it (run.ts). */
export type EmailMessage = Omit<EmailContent, 'host'>;
export interface EmailSender {
  send(message: EmailMessage): Promise<MailOutcome>;
}

export interface WorkerOptions {
  db: Db;
  vapid: VapidKeys;
  /** Null when email is off: email rows are never written then (RecordOptions.email). */
  email: EmailSender | null;
  /** The portal's address, for links in mail. */
  publicUrl: string;
  unsubscribeUrl: (uid: string) => string;
  record: RecordOptions;
  /** The worker's clock in milliseconds (tests move it). */
  now?: () => number;
  /** Rows claimed at once, and sends in flight. */
  batch?: number;
  concurrency?: number;
  pushTimeoutMs?: number;
  /** How long a claimed row is the claimer's before it counts as abandoned (LEASE_SECONDS; tests shorten it). */
  leaseSeconds?: number;
  /**
   * Test only (TEST_FAULTS): asked after each accepted send, before it is recorded; true stops the batch where a
   * process that died there would stop (run.ts kills its process instead).
   */
  crashAfterSend?: () => boolean;
  onError?: (err: unknown) => void;
}

interface ClaimedRow {
  id: string;
  event_kind: string;
  recipient_uid: string;
  channel: 'push' | 'email';
  facts: EventFacts;
  attempts: number;
  email: string | null;
  lock_screen_details: boolean;
  notification_message: string | null;
  skip: string | null;
}

type Outcome = { state: 'sent' } | { state: 'skipped'; reason: string } | { state: 'failed'; status: number | null; error: string } | { state: 'retry'; status: number | null; error: string; retryAfterSeconds: number | null };

/** Raised by the test-only fault: the batch stops where a dying process would. */
class Abandoned extends Error {}

export interface DeliveryWorker {
  /** One round: leases ended → unknown, one fan-out page, then one batch claimed and sent. Returns the rows handled. */
  runOnce(): Promise<number>;
  /** Rounds until nothing is due. */
  drain(): Promise<number>;
  /** Keeps running (woken by `wake`, else every pollMs) until stop(). */
  start(pollMs?: number): void;
  wake(): void;
  stop(): Promise<void>;
  readonly id: string;
}

export function createDeliveryWorker(options: WorkerOptions): DeliveryWorker {
  const id = randomUUID();
  const now = options.now ?? Date.now;
  const at = () => new Date(now()).toISOString();
  const batch = options.batch ?? 100;
  const concurrency = options.concurrency ?? 16;
  const db = options.db;
  let running: Promise<void> | null = null;
  let stopping = false;
  let wakeUp: (() => void) | null = null;
  let woken = false;

  async function expireLeases(): Promise<void> {
    await db.execute(sql`
      UPDATE deliveries SET state = 'unknown', finished_at = ${at()}, lease_until = NULL,
        last_error = 'the sender stopped before recording whether it was sent; not resent automatically'
      WHERE state = 'sending' AND lease_until < ${at()}`);
  }

  /** One page of a general notification's recipients: their rows, and the cursor moved, in one transaction. */
  async function fanOutPage(): Promise<number> {
    return db.transaction(async (tx) => {
      const [row] = rowsOf<{ id: string; event_kind: string; event_key: string; facts: EventFacts; notification_id: string | null; cursor: string | null; created_at: string }>(
        await tx.execute(sql`
          SELECT id, event_kind, event_key, facts, notification_id, cursor, created_at::text AS created_at FROM deliveries
          WHERE state = 'queued' AND channel = 'fanout' AND due_at <= ${at()}
          ORDER BY due_at, id LIMIT 1 FOR UPDATE SKIP LOCKED`),
      );
      if (!row) return 0;
      const page = rowsOf<{ uid: string }>(
        await tx.execute(sql`
          SELECT uid FROM users WHERE uid > ${row.cursor ?? ''} AND created_at <= ${row.created_at}
          ORDER BY uid LIMIT ${FANOUT_PAGE}`),
      );
      const last = page.at(-1)?.uid;
      if (last !== undefined) {
        const event = { kind: row.event_kind as DeliveryEventKind, key: row.event_key, facts: row.facts, notificationId: row.notification_id ?? undefined };
        await insertFor(tx, event, sql`u.uid > ${row.cursor ?? ''} AND u.uid <= ${last} AND u.created_at <= ${row.created_at}`, options.record);
      }
      const done = page.length < FANOUT_PAGE;
      await tx.execute(sql`
        UPDATE deliveries SET cursor = ${last ?? row.cursor}, state = ${done ? 'sent' : 'queued'}, finished_at = ${done ? at() : null}
        WHERE id = ${row.id}`);
      return page.length;
    });
  }

  /**
   * Claims due rows, and with each client's first due email their other queued non-essential email (a digest),
   * then reads what sending needs and why a row is no longer to be sent. Committed before anything is sent.
   */
  async function claim(): Promise<ClaimedRow[]> {
    const lease = new Date(now() + (options.leaseSeconds ?? LEASE_SECONDS) * 1000).toISOString();
    const claimedIds = await db.transaction(async (tx) => {
      const claimed = rowsOf<{ id: string; recipient_uid: string; channel: string; event_kind: string }>(
        await tx.execute(sql`
          WITH next AS (
            SELECT id FROM deliveries WHERE state = 'queued' AND channel <> 'fanout' AND due_at <= ${at()}
            ORDER BY due_at, id LIMIT ${batch} FOR UPDATE SKIP LOCKED)
          UPDATE deliveries d SET state = 'sending', attempts = d.attempts + 1, lease_until = ${lease}, claimed_by = ${id}
          FROM next WHERE d.id = next.id
          RETURNING d.id, d.recipient_uid, d.channel, d.event_kind`),
      );
      const ids = claimed.map((r) => r.id);
      const digestOf = new Map<string, string>();
      for (const row of claimed) if (row.channel === 'email' && !isEssential(row.event_kind) && !digestOf.has(row.recipient_uid)) digestOf.set(row.recipient_uid, row.id);
      for (const [uid, lead] of digestOf) {
        const gathered = rowsOf<{ id: string }>(
          await tx.execute(sql`
            WITH more AS (
              SELECT id FROM deliveries
              WHERE recipient_uid = ${uid} AND channel = 'email' AND state = 'queued' AND event_kind NOT IN (${ESSENTIAL_KINDS})
              FOR UPDATE SKIP LOCKED)
            UPDATE deliveries d SET state = 'sending', attempts = d.attempts + 1, lease_until = ${lease}, claimed_by = ${id}
            FROM more WHERE d.id = more.id RETURNING d.id`),
        );
        ids.push(...gathered.map((r) => r.id));
        await tx.execute(sql`
          UPDATE deliveries SET digest_of = ${lead}
          WHERE claimed_by = ${id} AND state = 'sending' AND recipient_uid = ${uid} AND channel = 'email'
            AND event_kind NOT IN (${ESSENTIAL_KINDS}) AND id <> ${lead}`);
      }
      return ids;
    });
    if (claimedIds.length === 0) return [];
    return rowsOf<ClaimedRow>(
      await db.execute(sql`
        SELECT d.id, d.event_kind, d.recipient_uid, d.channel, d.facts, d.attempts,
          u.email, p.lock_screen_details, n.message AS notification_message, ${SKIP_REASON} AS skip
        FROM deliveries d
        JOIN users u ON u.uid = d.recipient_uid
        JOIN notification_preferences p ON p.user_id = d.recipient_uid
        LEFT JOIN notifications n ON n.id = d.notification_id
        WHERE d.id IN (${sql.join(claimedIds.map((v) => sql`${v}::uuid`), sql`, `)})
        ORDER BY d.created_at, d.id`),
    );
  }

  async function mark(ids: string[], outcome: Outcome, attempts: number): Promise<void> {
    if (ids.length === 0) return;
    const which = sql`id IN (${sql.join(ids.map((v) => sql`${v}::uuid`), sql`, `)}) AND claimed_by = ${id} AND state = 'sending'`;
    switch (outcome.state) {
      case 'sent':
        await db.execute(sql`UPDATE deliveries SET state = 'sent', finished_at = ${at()}, lease_until = NULL, last_error = NULL WHERE ${which}`);
        return;
      case 'skipped':
        await db.execute(sql`UPDATE deliveries SET state = 'skipped', skip_reason = ${outcome.reason}, finished_at = ${at()}, lease_until = NULL WHERE ${which}`);
        return;
      case 'failed':
        await db.execute(sql`
          UPDATE deliveries SET state = 'failed', last_status = ${outcome.status}, last_error = ${outcome.error}, finished_at = ${at()}, lease_until = NULL
          WHERE ${which}`);
        return;
      case 'retry': {
        if (attempts >= MAX_ATTEMPTS) {
          await mark(ids, { state: 'failed', status: outcome.status, error: `gave up after ${attempts} attempts: ${outcome.error}` }, attempts);
          return;
        }
        const wait = Math.max(backoffSeconds(attempts), outcome.retryAfterSeconds ?? 0);
        await db.execute(sql`
          UPDATE deliveries SET state = 'queued', due_at = ${new Date(now() + wait * 1000).toISOString()}, last_status = ${outcome.status},
            last_error = ${outcome.error}, lease_until = NULL, claimed_by = NULL, digest_of = NULL
          WHERE ${which}`);
      }
    }
  }

  async function sendPushRow(row: ClaimedRow): Promise<Outcome> {
    // The recipient's devices, and whether this delivery already reached each (a retry skips those).
    const subscribed = rowsOf<{ id: string; endpoint: string; p256dh: string; auth: string; reached: boolean }>(
      await db.execute(sql`
        SELECT s.id, s.endpoint, s.p256dh, s.auth, ps.delivery_id IS NOT NULL AS reached FROM push_subscriptions s
        LEFT JOIN push_sends ps ON ps.delivery_id = ${row.id} AND ps.subscription_id = s.id
        WHERE s.user_id = ${row.recipient_uid}`),
    );
    const devices = subscribed.filter((s) => !s.reached);
    const already = subscribed.length - devices.length;
    if (devices.length === 0) return already > 0 ? { state: 'sent' } : { state: 'skipped', reason: 'no device subscribed' };
    const definition = eventDefinition(row.event_kind)!;
    const payload = pushPayload(row);
    const results: PushResult[] = [];
    for (const device of devices) {
      const result = await sendPush({ db, vapid: options.vapid }, device, payload, {
        topic: topicFor(row.id),
        ttl: definition.audience === 'staff' ? 4 * 3600 : 24 * 3600,
        urgency: definition.category === 'general' ? 'normal' : 'high',
        timeoutMs: options.pushTimeoutMs,
      });
      results.push(result);
      if (result.outcome === 'sent') {
        if (options.crashAfterSend?.()) throw new Abandoned();
        await db.execute(sql`INSERT INTO push_sends (delivery_id, subscription_id, sent_at) VALUES (${row.id}, ${device.id}, ${at()}) ON CONFLICT DO NOTHING`);
      }
    }
    const retry = results.find((r) => r.outcome === 'retry');
    if (retry?.outcome === 'retry') return { state: 'retry', status: retry.status, error: retry.error, retryAfterSeconds: retry.retryAfterSeconds };
    if (already > 0 || results.some((r) => r.outcome === 'sent')) return { state: 'sent' };
    const failed = results.find((r) => r.outcome === 'failed');
    if (failed?.outcome === 'failed') return { state: 'failed', status: failed.status, error: failed.error };
    return { state: 'skipped', reason: 'every device unsubscribed (404/410)' };
  }

  function pushPayload(row: ClaimedRow): PushPayload {
    const definition = eventDefinition(row.event_kind)!;
    const detail = definition.audience === 'staff' ? definition.detail?.(row.facts) : row.notification_message;
    const subject = row.facts.threadId ?? row.facts.requestId ?? row.facts.clientUid ?? row.id;
    return {
      v: 1,
      id: row.id,
      title: PRODUCT_NAME,
      body: row.lock_screen_details && detail ? detail : definition.neutral(row.facts),
      url: definition.url(row.facts),
      tag: `${row.event_kind}:${subject}`,
    };
  }

  /** One mail for one row, or a digest for a client's rows gathered in one claim. */
  async function sendEmail(group: ClaimedRow[]): Promise<Outcome> {
    if (!options.email) return { state: 'failed', status: null, error: 'email is off on this server' };
    const [first] = group;
    if (!first.email) return { state: 'skipped', reason: 'no email address' };
    const lines = group.map((row) => `${eventDefinition(row.event_kind)!.line(row.facts)}.`);
    const single = group.length === 1;
    const path = single ? eventDefinition(first.event_kind)!.url(first.facts) : '/notifications';
    const outcome = await options.email.send({
      to: first.email,
      deliveryId: first.id,
      subject: emailSubject(single ? eventDefinition(first.event_kind)!.line(first.facts) : DIGEST_LINE(group.length)),
      paragraphs: lines,
      link: { text: OPEN_LINK, url: new URL(path, options.publicUrl).toString() },
      unsubscribeUrl: isEssential(first.event_kind) ? undefined : options.unsubscribeUrl(first.recipient_uid),
    });
    if (outcome.outcome === 'sent') {
      if (options.crashAfterSend?.()) throw new Abandoned();
      return { state: 'sent' };
    }
    if (outcome.outcome === 'retry') return { state: 'retry', status: outcome.status ?? null, error: outcome.error, retryAfterSeconds: null };
    return { state: 'failed', status: outcome.status ?? null, error: outcome.error };
  }

  async function runOnce(): Promise<number> {
    await expireLeases();
    const fannedOut = await fanOutPage();
    const claimed = await claim();
    const tasks: (() => Promise<void>)[] = [];
    const skipped = new Map<string, string[]>();
    for (const row of claimed.filter((r) => r.skip)) skipped.set(row.skip!, [...(skipped.get(row.skip!) ?? []), row.id]);
    for (const [reason, ids] of skipped) await mark(ids, { state: 'skipped', reason }, 0);
    const live = claimed.filter((r) => !r.skip);
    for (const row of live.filter((r) => r.channel === 'push')) tasks.push(async () => mark([row.id], await sendPushRow(row), row.attempts));
    // A client's non-essential mail of one claim goes as one (a digest when several); essential mail goes alone.
    const mails = new Map<string, ClaimedRow[]>();
    for (const row of live.filter((r) => r.channel === 'email')) {
      const key = isEssential(row.event_kind) ? row.id : `to:${row.recipient_uid}`;
      mails.set(key, [...(mails.get(key) ?? []), row]);
    }
    for (const group of mails.values()) tasks.push(async () => mark(group.map((r) => r.id), await sendEmail(group), Math.max(...group.map((r) => r.attempts))));
    // A batch of nothing but a general notification's rows (a fan-out) is sent a few at a time: it is not urgent,
    // and the API's requests share this process's CPU with its encryption.
    const bulk = live.length > 0 && live.every((r) => eventDefinition(r.event_kind)?.category === 'general');
    await inPool(tasks, bulk ? Math.min(BULK_CONCURRENCY, concurrency) : concurrency);
    return fannedOut + claimed.length;
  }

  async function drain(): Promise<number> {
    let total = 0;
    for (;;) {
      const handled = await runOnce();
      total += handled;
      if (handled === 0) return total;
    }
  }

  function wake() {
    woken = true;
    wakeUp?.();
  }

  return {
    id,
    runOnce,
    drain,
    wake,
    start(pollMs = 2000) {
      if (running) return;
      stopping = false;
      running = (async () => {
        while (!stopping) {
          woken = false;
          try {
            if ((await runOnce()) > 0) continue;
          } catch (err) {
            options.onError?.(err);
          }
          if (woken || stopping) continue;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, pollMs);
            wakeUp = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          wakeUp = null;
        }
      })();
    },
    async stop() {
      stopping = true;
      wakeUp?.();
      await running;
      running = null;
    },
  };
}

/** The kinds whose mail goes whatever the person chose. */
const ESSENTIAL_KINDS: SQL = sql.join(
  DELIVERY_EVENT_KINDS.filter(isEssential).map((kind) => sql`${kind}`),
  sql`, `,
);

/** Why a claimed row is not to be sent now, or null (alias d: the delivery, u: its user, p: their choices). */
const SKIP_REASON: SQL = skipReason();

function skipReason(): SQL {
  const kindSwitch = sql.join(
    DELIVERY_EVENT_KINDS.map((kind) => sql`WHEN d.event_kind = ${kind} THEN ${switchOn(kind)}`),
    sql` `,
  );
  return sql`CASE
    WHEN NOT (CASE ${kindSwitch} ELSE false END) THEN 'switched off'
    WHEN d.channel = 'push' AND NOT p.push THEN 'switched off'
    WHEN d.channel = 'email' AND NOT p.email AND d.event_kind NOT IN (${ESSENTIAL_KINDS}) THEN 'switched off'
    WHEN d.channel = 'email' AND (
      EXISTS (SELECT 1 FROM notification_reads r JOIN notifications rn ON rn.id = d.notification_id
              WHERE r.user_id = d.recipient_uid AND r.read_up_to >= rn.created_at)
      OR EXISTS (SELECT 1 FROM seen_marks m WHERE m.user_id = d.recipient_uid AND m.subject_kind = d.seen_kind
              AND m.subject_id = d.seen_id AND m.seen_up_to >= date_trunc('milliseconds', d.created_at)))
      THEN 'read in the app'
    WHEN d.event_kind = 'newLead' AND NOT EXISTS (SELECT 1 FROM users l WHERE l.uid = d.facts->>'clientUid'
              AND NOT l.is_client AND NOT l.is_staff AND NOT l.is_admin) THEN 'handled by staff'
    WHEN d.event_kind = 'newRequest' AND NOT EXISTS (SELECT 1 FROM product_requests r WHERE r.id::text = d.facts->>'requestId'
              AND r.status = 'Pending') THEN 'handled by staff'
    WHEN d.event_kind = 'clientMessage' AND NOT EXISTS (SELECT 1 FROM contact_requests t WHERE t.id::text = d.facts->>'threadId'
              AND t.awaiting_since IS NOT NULL) THEN 'handled by staff'
    WHEN d.event_kind = 'refundRequested' AND NOT EXISTS (SELECT 1 FROM refunds f WHERE f.id::text = d.facts->>'refundId'
              AND f.status = 'requested') THEN 'handled by staff'
    ELSE NULL END`;
}

/** Seconds before the next attempt after `attempts` tries, ±20 % so retries of many rows spread out. */
export function backoffSeconds(attempts: number, random = Math.random): number {
  const base = BACKOFF_SECONDS[Math.min(Math.max(attempts, 1), BACKOFF_SECONDS.length) - 1];
  return Math.round(base * (0.8 + 0.4 * random()));
}

async function inPool(tasks: (() => Promise<void>)[], size: number): Promise<void> {
  let next = 0;
  let abandoned: unknown = null;
  const lane = async () => {
    while (next < tasks.length && !abandoned) {
      const task = tasks[next++];
      try {
        await task();
        // Requests waiting for the event loop go first: a send's encryption runs on it.
        await new Promise((resolve) => setImmediate(resolve));
      } catch (err) {
        if (err instanceof Abandoned) abandoned = err;
        else throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, tasks.length) }, lane));
  if (abandoned) throw abandoned;
}

