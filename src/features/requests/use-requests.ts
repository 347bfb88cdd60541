import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncExternalStore } from 'react';
import type { StatusCounts } from '../../../domain/schemas.ts';
import { type ToolDefinition, toolByBackendName } from '../../../domain/tools.ts';
import { type LocalRequest, countStatuses } from '../../lib/db.ts';
import { useReplica } from '../../lib/replica.ts';

declare module '@tanstack/react-router' {
  /** The spec passes the tool as navigation state as well as in the path. */
  interface HistoryState {
    toolId?: string;
  }
}

function byNewest(a: { Created_Time: string }, b: { Created_Time: string }): number {
  return b.Created_Time.localeCompare(a.Created_Time);
}

/**
 * The user's requests from the device replica, newest first; `tool` narrows to one tool.
 * Undefined while Dexie answers, so a screen can tell "loading" from "none".
 */
export function useRequests(tool?: ToolDefinition): LocalRequest[] | undefined {
  const db = useReplica();
  const type = tool?.ToolNameBackend;
  return useLiveQuery(async () => {
    const rows = type ? await db.requests.where('productRequestType').equals(type).toArray() : await db.requests.toArray();
    return rows.sort(byNewest);
  }, [db, type]);
}

/** Counted on the device rather than fetched, so the cards agree with the tables, offline too. */
export function useStatusCounts(): StatusCounts | undefined {
  const db = useReplica();
  return useLiveQuery(async () => countStatuses(await db.requests.toArray()), [db]);
}

export function toolOf(request: Pick<LocalRequest, 'productRequestType'>): ToolDefinition | undefined {
  return toolByBackendName(request.productRequestType);
}

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/** navigator.onLine, kept current by the online/offline events. */
export function useOnline(): boolean {
  return useSyncExternalStore(subscribeOnline, () => navigator.onLine, () => true);
}
