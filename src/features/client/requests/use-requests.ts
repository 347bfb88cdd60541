import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { type ToolDefinition, toolByBackendName } from '../../../../domain/tools.ts';
import { type LocalRequest, requestsOfTool } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';

export const PAGE_SIZE = 50;

export interface RequestPage {
  rows: LocalRequest[];
  total: number;
}

/**
 * One page of the user's requests from the device replica, newest first; `tool` narrows to one tool.
 * Index-backed, so a replica of 10,000 requests reads and renders 50 rows, not all of them.
 * Undefined while Dexie answers, so a screen can tell "loading" from "none".
 */
export function useRequestPage(tool: ToolDefinition | undefined, page: number): RequestPage | undefined {
  const db = useReplica();
  const type = tool?.ToolNameBackend;
  return useLiveQuery(async () => {
    const newest = type ? requestsOfTool(db, type).reverse() : db.requests.orderBy('Created_Time').reverse();
    const [rows, total] = await Promise.all([newest.offset(page * PAGE_SIZE).limit(PAGE_SIZE).toArray(), type ? requestsOfTool(db, type).count() : db.requests.count()]);
    return { rows, total };
  }, [db, type, page]);
}

export function toolOf(request: Pick<LocalRequest, 'productRequestType'>): ToolDefinition | undefined {
  return toolByBackendName(request.productRequestType);
}
