import { useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import { texts } from '../../../../domain/texts.ts';
import { ApiError, NetworkError, apiGet } from '../../../lib/api.ts';
import type { LocalRequest, PortalDb } from '../../../lib/db.ts';
import { hasSavedCopy } from '../../../lib/pwa.ts';
import { useReplica } from '../../../lib/replica.ts';
import { dispositionName, saveBlob } from '../../../lib/save-file.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { toolOf } from './use-requests.ts';

export type LinkState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'ready'; link: string; fetchedAt: number }
  | { kind: 'unpaid' }
  | { kind: 'error'; message: string };

/** Signed links live 15 minutes on the server; refresh a little earlier so a click never gets an expired one. */
const LINK_FRESH_MS = 10 * 60 * 1000;

const linkKey = (requestId: string) => `finalFileLink:${requestId}`;

/** The last link of a request whose file the service worker saved: offline, it still opens that copy. */
async function savedLink(db: PortalDb, requestId: string): Promise<string | null> {
  const link = (await db.meta.get(linkKey(requestId)))?.value;
  return typeof link === 'string' && (await hasSavedCopy(link)) ? link : null;
}

/**
 * The final-file link of a Done request, fetched when the row is Done (and again when it has gone
 * stale). Online, a fresh short-lived signed link; offline, the copy downloaded earlier, if any.
 */
export function useFinalFileLink(request: LocalRequest, online: boolean) {
  const db = useReplica();
  const [state, setState] = useState<LinkState>({ kind: 'idle' });
  const toolId = toolOf(request)?.id;
  const wanted = request.status === 'Done' && !request.pending && !!toolId;

  const load = useCallback(() => {
    if (!wanted) return () => undefined;
    let cancelled = false;
    if (!online) {
      void savedLink(db, request.id).then((link) => !cancelled && setState(link ? { kind: 'ready', link, fetchedAt: Date.now() } : { kind: 'idle' }));
      return () => {
        cancelled = true;
      };
    }
    setState((s) => (s.kind === 'ready' ? s : { kind: 'loading' }));
    apiGet(`/${toolId}/${request.id}/file`, z.string())
      .then((link) => {
        if (cancelled) return;
        setState({ kind: 'ready', link, fetchedAt: Date.now() });
        // Signed out meanwhile: the replica is closed, nothing to remember.
        db.meta.put({ key: linkKey(request.id), value: link }).catch(() => undefined);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.code === 'NOT_FULLY_PAID') setState({ kind: 'unpaid' });
        else if (err instanceof NetworkError) setState({ kind: 'idle' });
        else setState({ kind: 'error', message: err instanceof ApiError ? err.message : texts.somethingWentWrong });
      });
    return () => {
      cancelled = true;
    };
    // paid/leftToPay are in the deps so a payment arriving through sync fetches the link again.
  }, [wanted, online, toolId, request.id, db]);

  useEffect(load, [load, request.paid, request.leftToPay]);

  const refreshIfStale = () => {
    if (state.kind === 'ready' && Date.now() - state.fetchedAt > LINK_FRESH_MS) load();
  };
  return { state, refreshIfStale };
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
