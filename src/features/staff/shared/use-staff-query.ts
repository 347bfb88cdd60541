import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import type { ClientFile, QueuePage, RequestFile } from '../../../../domain/staff.ts';
import { apiGet } from '../../../lib/api.ts';
import { NetworkError } from '../../../lib/api-errors.ts';
import type { PortalDb } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { STAFF_COUNTS_KEY } from '../../../lib/sync/staff-pull.ts';

export interface StaffQuery<T> {
  /** The freshest of the server's last answer and the device's copy; kept while a reload runs, so the page does not blink. */
  data: T | undefined;
  /** The last failure for this path, cleared by the next success. */
  error: unknown;
  loading: boolean;
  reload(): void;
  /** The copy is shown because the server could not be reached: when that copy was fetched (ms); null otherwise. */
  offlineSince: number | null;
  /** When the data shown was fetched (ms): the same answer read back from the device keeps it. */
  fetchedAt: number | undefined;
}

/** What each table of the staff replica holds. */
interface CopyData {
  staffClients: ClientFile;
  staffRequests: RequestFile;
  staffQueue: QueuePage;
}
export type CopyTable = keyof CopyData;

/** Where a page's answer is kept on the device: a client file by uid, a request file by id, a queue page by "tab|search|". */
export interface CopyPlace<K extends CopyTable> {
  table: K;
  key: string;
}

interface Answer<T> {
  path: string;
  data?: T;
  fetchedAt?: number;
  error?: unknown;
  /** Which fetch produced it: `loading` is simply "the latest fetch has not answered yet". */
  run: number;
}

/**
 * No answer because there is no connection (as opposed to a refusal). An expired ID token cannot be
 * refreshed offline either: Firebase then fails with its own network error before any request is made.
 */
export function isOfflineError(error: unknown): boolean {
  if (error instanceof NetworkError) return true;
  if ((error as { code?: unknown } | null)?.code === 'auth/network-request-failed') return true;
  return error !== undefined && typeof navigator !== 'undefined' && navigator.onLine === false;
}

/** The answer replaces the device's copy; a queue page also brings the freshest counts for the tabs. */
async function storeCopy<K extends CopyTable>(db: PortalDb, place: CopyPlace<K>, data: CopyData[K], fetchedAt: number): Promise<void> {
  const table = db.table(place.table);
  await db.transaction('rw', [table, db.meta], async () => {
    await table.put({ key: place.key, data, fetchedAt });
    if (place.table === 'staffQueue') await db.meta.put({ key: STAFF_COUNTS_KEY, value: (data as QueuePage).counts });
  });
}

/**
 * Reads a staff page offline-first: the device's copy (written by earlier visits and by the staff feed)
 * shows at once and follows every change live; the server's answer, when it comes, replaces the copy.
 * Offline with a copy, the copy is the page and `offlineSince` says how old it is. Without `place` it is
 * a plain online read (the team list is not kept). `schema` must be a stable (module-level) value.
 */
export function useStaffQuery<K extends CopyTable>(path: string, schema: z.ZodType<CopyData[K]>, place: CopyPlace<K>): StaffQuery<CopyData[K]>;
export function useStaffQuery<T>(path: string, schema: z.ZodType<T>): StaffQuery<T>;
export function useStaffQuery<T>(path: string, schema: z.ZodType<T>, place?: CopyPlace<CopyTable>): StaffQuery<T> {
  const db = useReplica();
  const table = place?.table;
  const key = place?.key;
  const [run, setRun] = useState(0);
  const [answer, setAnswer] = useState<Answer<T>>({ path: '', run: -1 });
  // null: no copy on this device (or none kept); undefined: Dexie has not answered yet.
  const copy = useLiveQuery(
    async () => (table && key !== undefined ? (((await db.table(table).get(key)) as { data: T; fetchedAt: number } | undefined) ?? null) : null),
    [db, table, key],
  );

  useEffect(() => {
    const controller = new AbortController();
    apiGet(path, schema, { signal: controller.signal }).then(
      async (data) => {
        const fetchedAt = Date.now();
        // Written even if the page was left meanwhile: it is a valid answer, and the next visit reads it.
        if (table && key !== undefined) {
          await storeCopy(db, { table, key }, data as CopyData[CopyTable], fetchedAt).catch((err: unknown) => console.error('keeping a staff page failed', err));
        }
        if (!controller.signal.aborted) setAnswer({ path, data, fetchedAt, run });
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // A failed reload keeps what was shown, with the error beside it.
        setAnswer((prev) => (prev.path === path ? { ...prev, error, run } : { path, error, run }));
      },
    );
    return () => controller.abort();
  }, [path, schema, run, db, table, key]);

  const reload = useCallback(() => setRun((r) => r + 1), []);
  // Back online, the page asks the server again: the offline copy gives way to the current state.
  useEffect(() => {
    window.addEventListener('online', reload);
    return () => window.removeEventListener('online', reload);
  }, [reload]);

  const current = answer.path === path ? answer : null;
  // The copy follows live writes (the feed, a sent reply): it wins unless the server's answer is newer.
  const fromCopy = !!copy && (current?.data === undefined || copy.fetchedAt >= (current.fetchedAt ?? 0));
  const loading = !current || current.run !== run;
  return {
    data: fromCopy ? copy.data : current?.data,
    error: current?.error,
    loading,
    reload,
    offlineSince: fromCopy && !loading && isOfflineError(current?.error) ? copy.fetchedAt : null,
    fetchedAt: fromCopy ? copy.fetchedAt : current?.fetchedAt,
  };
}
