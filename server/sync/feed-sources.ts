import { type SQL, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Profile } from '../../domain/schemas.ts';
import type { SyncList, SyncPage } from '../../domain/sync.ts';
import type { Db } from '../db/client.ts';
import { businessSettings, contactReplies, contactRequests, deals, files, notificationPreferences, notificationReads, notifications, productRequests, refunds, trackingLinks, users } from '../db/schema.ts';
import { toDeal, toProfile, toRefund } from '../serialize/rows.ts';
import { toContactReply, toContactRequest, toNotification, toNotificationPreferences, toNotificationRead, toUserFile } from '../serialize/messages.ts';
import type { SignedLinks } from '../files/signed-links.ts';
import { toBusinessSettings } from '../services/business-settings.ts';
import { toTrackingLink } from '../tracking/links.ts';
import { syncRequests } from './requests.ts';

/** A list of the client's feed, or its one record (the profile): the names domain/sync.ts declares. */
export type FeedName = SyncList | 'profile';
/** One row of a feed's list as the page sends it. */
export type FeedRow<Name extends FeedName> = Name extends SyncList ? SyncPage[Name][number] : Profile;

/** What a page's read of a table needs besides the database and the user. */
export interface FeedContext {
  links: SignedLinks;
}

/**
 * One table of the client's feed on the server, declared once: its Drizzle table, whose rows are the user's, and
 * how a row goes out. GET /api/sync's two steps (server/routes/sync.ts) are made from these declarations.
 */
export interface FeedSource<Row = unknown> {
  table: PgTable;
  seq: AnyPgColumn;
  /**
   * The user's rows, as conditions on the table's columns. Each is one branch of the first step, an index range
   * scan on (owner, seq) cut at `limit + 1`, so its cost does not grow with history; the page's read takes any of them.
   */
  owned(uid: string): SQL[];
  /** At most one row (the profile, the read marker, the settings): its branch of the first step needs no cut. */
  single: boolean;
  /** The user's rows in (cursor, upper], oldest first, as the page sends them. */
  read(db: Db, uid: string, cursor: string, upper: string, context: FeedContext): Promise<Row[]>;
}

type SeqTable = PgTable & { seq: AnyPgColumn };

interface Declaration<T extends SeqTable> {
  table: T;
  owned(uid: string): SQL | SQL[];
  single?: boolean;
}

/** Declares a feed table whose rows go out through a serializer. */
export function serializedSource<T extends SeqTable, Row>(declaration: Declaration<T> & { serialize(row: T['$inferSelect'], context: FeedContext): Row }): FeedSource<Row> {
  const { table, serialize } = declaration;
  const owned = (uid: string) => [declaration.owned(uid)].flat();
  return {
    table,
    seq: table.seq,
    owned,
    single: declaration.single ?? false,
    async read(db, uid, cursor, upper, context) {
      const rows = (await db
        .select()
        .from(table as PgTable)
        .where(sql`${anyOf(owned(uid))} AND ${table.seq} > ${cursor}::bigint AND ${table.seq} <= ${upper}::bigint`)
        .orderBy(asc(table.seq))) as T['$inferSelect'][];
      return rows.map((row) => serialize(row, context));
    },
  };
}

/** Declares a feed table with a reader of its own (the requests, the bulk of a catch-up). */
export function sourceWithReader<T extends SeqTable, Row>(declaration: Declaration<T> & { read(db: Db, uid: string, cursor: string, upper: string): Promise<Row[]> }): FeedSource<Row> {
  return { table: declaration.table, seq: declaration.table.seq, owned: (uid) => [declaration.owned(uid)].flat(), single: declaration.single ?? false, read: declaration.read };
}

// drizzle types and()/or() as possibly undefined (the result for no conditions at all); written here as drizzle writes them.
const both = (a: SQL, b: SQL): SQL => sql`(${a} and ${b})`;
const anyOf = (conditions: SQL[]): SQL => (conditions.length === 1 ? conditions[0] : sql`(${sql.join(conditions, sql` or `)})`);

/**
 * File kinds a user's replica holds: the general uploads the Files page lists, as GET /api/user/files does.
 * Purchase attachments travel inside their request; final reports (payment-gated) and invoices are served elsewhere.
 */
export const SYNCED_FILE_KINDS = ['general'] as const;

/**
 * Every table of the client's feed, by its feed name: exactly the names domain/sync.ts declares (checked below).
 * staff_notes and staff_watches draw from the same sequence but are staff-only: they must never be declared here
 * (the gaps they leave in a client's seq are harmless: the feed only needs order).
 */
export const feedSources = {
  profile: serializedSource({ table: users, owned: (uid) => eq(users.uid, uid), single: true, serialize: (row) => toProfile(row) }),
  // The bulk of a catch-up: a leaner query of its own (server/sync/requests.ts), sent without the zod check (serializeSyncPage).
  requests: sourceWithReader({ table: productRequests, owned: (uid) => eq(productRequests.userId, uid), read: syncRequests }),
  deals: serializedSource({ table: deals, owned: (uid) => eq(deals.userId, uid), serialize: (row, { links }) => toDeal(row, links) }),
  refunds: serializedSource({ table: refunds, owned: (uid) => eq(refunds.userId, uid), serialize: toRefund }),
  // The user's and the general ones (no user): two index ranges.
  notifications: serializedSource({
    table: notifications,
    owned: (uid) => [eq(notifications.userId, uid), isNull(notifications.userId)],
    serialize: toNotification,
  }),
  contactRequests: serializedSource({ table: contactRequests, owned: (uid) => eq(contactRequests.userId, uid), serialize: toContactRequest }),
  // A thread's replies from either side: user_id is the thread's owner, whoever wrote the reply.
  contactReplies: serializedSource({ table: contactReplies, owned: (uid) => eq(contactReplies.userId, uid), serialize: toContactReply }),
  files: serializedSource({
    table: files,
    owned: (uid) => both(eq(files.userId, uid), inArray(files.kind, [...SYNCED_FILE_KINDS])),
    serialize: toUserFile,
  }),
  // Track Master links of the client's requests; a capture moves the link's seq (its counts).
  trackingLinks: serializedSource({ table: trackingLinks, owned: (uid) => eq(trackingLinks.userId, uid), serialize: toTrackingLink }),
  // The user's notification read marker: one row, renumbered each time it moves.
  notificationReads: serializedSource({
    table: notificationReads,
    owned: (uid) => eq(notificationReads.userId, uid),
    single: true,
    serialize: toNotificationRead,
  }),
  notificationPreferences: serializedSource({
    table: notificationPreferences,
    owned: (uid) => eq(notificationPreferences.userId, uid),
    single: true,
    serialize: toNotificationPreferences,
  }),
  // The business settings: one row, everyone's (like a general notification).
  businessSettings: serializedSource({ table: businessSettings, owned: () => sql`true`, single: true, serialize: toBusinessSettings }),
} satisfies { [Name in FeedName]: FeedSource<FeedRow<Name>> };

/** The next changes of a user's feed as a page needs them: which tables they are in, where the page ends, and whether more follow. */
export interface NextChanges<Name extends string = FeedName> {
  tables: Set<Name>;
  /** The seq of the page's last change; null when nothing changed. */
  upper: string | null;
  hasMore: boolean;
}

/**
 * The next `limit` changes of this user's, across every declared table, summed up by table in the database: at
 * most one row per table comes back rather than one per change (5,001 of them for a full page, which PGlite
 * encoded and decoded at 10–40 ms a page; docs/decisions/017). The change after them, if any, only says that more
 * follow. Each branch is an index range scan on (owner, seq) cut at `limit + 1` (a single row needs no cut), so
 * the cost does not grow with history. seq is read as text (node-postgres and PGlite disagree on how they return
 * int8) but sorted as a number.
 */
export async function nextChangesOf<Name extends string>(sources: Record<Name, FeedSource>, db: Db, uid: string, cursor: string, limit: number): Promise<NextChanges<Name>> {
  const n = limit + 1;
  const c = sql`${cursor}::bigint`;
  const branches = (Object.entries(sources) as [Name, FeedSource][]).flatMap(([name, source]) =>
    source.owned(uid).map((owned) => {
      const cut = source.single ? sql`` : sql` ORDER BY ${source.seq} LIMIT ${n}`;
      return sql`(SELECT ${tag(name)} AS t, ${source.seq} AS seq FROM ${source.table} WHERE ${owned} AND ${source.seq} > ${c}${cut})`;
    }),
  );
  const result = await db.execute(sql`
    WITH next AS (
      SELECT t, seq, row_number() OVER (ORDER BY seq) AS i FROM (
        SELECT t, seq FROM (
          ${sql.join(branches, sql`\n          UNION ALL `)}
        ) AS changes
        ORDER BY changes.seq
        LIMIT ${n}
      ) AS cut
    )
    SELECT t, (max(seq) FILTER (WHERE i <= ${limit}))::text AS s, bool_or(i > ${limit}) AS more
    FROM next
    GROUP BY t
  `);
  const rows = (result as unknown as { rows: { t: Name; s: string | null; more: boolean }[] }).rows;
  const next: NextChanges<Name> = { tables: new Set(), upper: null, hasMore: rows.some((r) => r.more) };
  for (const { t, s } of rows) {
    if (s === null) continue; // only the change after the page is of this table
    next.tables.add(t);
    if (next.upper === null || BigInt(s) > BigInt(next.upper)) next.upper = s;
  }
  return next;
}

/** A feed name as an SQL literal: names are identifiers of the code, never input. */
function tag(name: string): SQL {
  if (!/^[A-Za-z]+$/.test(name)) throw new Error(`A feed name is a word: ${name}`);
  return sql.raw(`'${name}'`);
}

/** The rows of the tables `next` names, in (cursor, upper], read at once: by feed name, as the page sends them. */
export async function readChangesOf<Name extends string>(
  sources: Record<Name, FeedSource>,
  db: Db,
  uid: string,
  cursor: string,
  upper: string,
  tables: Set<Name>,
  context: FeedContext,
): Promise<Map<Name, unknown[]>> {
  const read = await Promise.all([...tables].map(async (name) => [name, await sources[name].read(db, uid, cursor, upper, context)] as const));
  return new Map(read);
}

/** GET /api/sync's first step over the declared tables. */
export const nextChanges = (db: Db, uid: string, cursor: string, limit: number) => nextChangesOf(feedSources, db, uid, cursor, limit);
