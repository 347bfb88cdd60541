import { useCallback, useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { texts } from '../../../../domain/texts.ts';
import { centsFromDollars } from '../../../../domain/money.ts';
import { apiGet } from '../../../lib/api.ts';
import { ApiError, NetworkError } from '../../../lib/api-errors.ts';
import type { LocalRequest, PortalDb } from '../../../lib/db.ts';
import { hasSavedCopy } from '../../../lib/pwa.ts';
import { useReplica } from '../../../lib/replica.ts';
import { dispositionName, saveBlob } from '../../../lib/save-file.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { toolOf } from './use-requests.ts';

export type LinkState =
  /** Not a downloadable row (not Done, not sent yet), or Done and paid but the menu was not opened yet. */
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'ready'; link: string; fetchedAt: number }
  /** Known from the replica (or, if the replica is behind, from the server's NOT_FULLY_PAID). */
  | { kind: 'unpaid' }
  | { kind: 'error'; message: string };

/** Signed links live 15 minutes on the server; refresh a little earlier so a click never gets an expired one. */
export const LINK_FRESH_MS = 10 * 60 * 1000;

const linkKey = (requestId: string) => `finalFileLink:${requestId}`;

/**
 * Paid in full, as the server decides it (server/serialize/rows.ts isFullyPaid): a price is set and nothing
 * is left. Read from the replica, so a table of Done rows knows which downloads are refused without
 * asking the server once per row.
 */
export function isPaidInFull(request: Pick<LocalRequest, 'totalAmount' | 'paid' | 'leftToPay'>): boolean {
  if (request.totalAmount === null) return false;
  if (request.leftToPay !== null) return request.leftToPay <= 0;
  return centsFromDollars(request.totalAmount) - centsFromDollars(request.paid) <= 0;
}

/** The last link of a request whose file the service worker saved: offline, it still opens that copy. */
async function savedLink(db: PortalDb, requestId: string): Promise<string | null> {
  const link = (await db.meta.get(linkKey(requestId)))?.value;
  return typeof link === 'string' && (await hasSavedCopy(link)) ? link : null;
}

const IDLE: LinkState = { kind: 'idle' };

/**
 * The final-file link of a Done request, fetched only while `wanted` (the row's action menu is open)
 * and never on mount: a table page of 50 Done rows would otherwise make 50 authenticated calls. A
 * link fetched once is kept while it is fresh, so reopening the menu does not ask again.
 * Online, a fresh short-lived signed link; offline, the copy downloaded earlier, if any.
 */
export function useFinalFileLink(request: LocalRequest, online: boolean, wanted: boolean) {
  const db = useReplica();
  const toolId = toolOf(request)?.id;
  const downloadable = request.status === 'Done' && !request.pending && !!toolId;
  const paid = isPaidInFull(request);
  // What was fetched belongs to this version of the row: a payment or a status change arriving
  // through sync starts over (a NOT_FULLY_PAID answer from before the payment no longer holds).
  const version = `${request.id}|${request.status}|${request.paid}|${request.leftToPay}|${request.totalAmount}`;
  const [fetched, setFetched] = useState<{ version: string; state: LinkState }>({ version, state: IDLE });
  const fetchedState = fetched.version === version ? fetched.state : IDLE;
  const state: LinkState = !downloadable ? IDLE : !paid ? { kind: 'unpaid' } : fetchedState;

  // Read by the load and the trigger without making them re-run on every state change (which would
  // retry a failed fetch in a loop).
  const latest = useRef({ version, state });
  latest.current = { version, state };
  // Only the newest load may settle: an older one finishing late (the offline lookup overtaken by the
  // call made when the connection came back, an answer for the row before a payment) is dropped.
  const loads = useRef(0);

  const load = useCallback((): Promise<string | null> => {
    if (!downloadable || !paid) return Promise.resolve(null);
    const forVersion = version;
    const ticket = ++loads.current;
    const settle = (next: LinkState) => {
      if (ticket === loads.current && latest.current.version === forVersion) setFetched({ version: forVersion, state: next });
    };
    const fromDevice = async (): Promise<string | null> => {
      const link = await savedLink(db, request.id).catch(() => null);
      settle(link ? { kind: 'ready', link, fetchedAt: Date.now() } : { kind: 'error', message: texts.needsConnection });
      return link;
    };
    if (!online) return fromDevice();
    setFetched((s) => ({ version: forVersion, state: s.version === forVersion && s.state.kind === 'ready' ? s.state : { kind: 'loading' } }));
    return apiGet(`/${toolId}/${request.id}/file`, z.string()).then(
      (link) => {
        settle({ kind: 'ready', link, fetchedAt: Date.now() });
        // Signed out meanwhile: the replica is closed, nothing to remember.
        db.meta.put({ key: linkKey(request.id), value: link }).catch(() => undefined);
        return link;
      },
      (err: unknown) => {
        // The connection dropped although the browser says online: the saved copy, if any, still opens.
        if (err instanceof NetworkError) return fromDevice();
        if (err instanceof ApiError && err.code === 'NOT_FULLY_PAID') settle({ kind: 'unpaid' });
        // FILE_NOT_READY and the like carry the server's own words.
        else settle({ kind: 'error', message: err instanceof ApiError ? err.message : texts.somethingWentWrong });
        return null;
      },
    );
  }, [downloadable, paid, version, online, toolId, request.id, db]);

  // Asks when the menu opens, and again while it is open if the row changes (a payment arriving
  // makes the download available) or the connection comes back after a failure.
  useEffect(() => {
    if (!wanted) return;
    const current = latest.current.state;
    if (current.kind === 'loading' || current.kind === 'unpaid') return;
    if (current.kind === 'ready' && Date.now() - current.fetchedAt <= LINK_FRESH_MS) return;
    void load();
  }, [wanted, load]);

  /** Saves the file: with the link at hand if it is fresh, otherwise after asking for a new one. */
  const download = useCallback(async () => {
    const current = latest.current.state;
    const link = current.kind === 'ready' && Date.now() - current.fetchedAt <= LINK_FRESH_MS ? current.link : await load();
    if (link) await saveFinalFile(link);
  }, [load]);

  return { state, download };
}

/**
 * Fetched from the page rather than followed as a link: a fetch always passes through the service
 * worker, which keeps the file, so the same menu item opens the saved copy offline.
 */
export async function saveFinalFile(link: string): Promise<void> {
  try {
    const res = await fetch(link);
    if (!res.ok) throw new Error(String(res.status));
    saveBlob(await res.blob(), dispositionName(res.headers.get('content-disposition'), 'final-report.pdf'));
  } catch {
    showMessage(navigator.onLine ? texts.somethingWentWrong : texts.needsConnection, 'error');
  }
}
