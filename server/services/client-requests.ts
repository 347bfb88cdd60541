import { and, asc, count, desc, eq, isNull } from 'drizzle-orm';
import type { Deal, LiveDetails, ProductRequest, StatusCounts } from '../../domain/schemas.ts';
import { texts } from '../../domain/texts.ts';
import { findTool, type ToolDefinition, toolByBackendName, tools } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';
import { deals, productRequests, visits } from '../db/schema.ts';
import type { SignedLinks } from '../files/signed-links.ts';
import { UUID } from '../files/storage.ts';
import { HttpError, notFound } from '../platform/errors.ts';
import { isFullyPaid, toDeal, toRequest, toVisit } from '../serialize/rows.ts';

/**
 * The signed-in client's requests, deals, Live Details, final file and billing (docs/api.md, "Requests and
 * tools"). Every lookup is scoped to the caller: someone else's id is 404, like one that does not exist.
 */

/** Live Details shows at least this many placeholder rows before payment in full. */
const MIN_PLACEHOLDER_ROWS = 3;

type RequestRow = typeof productRequests.$inferSelect;

export const missingRequest = () => notFound('Request not found');

function toolOr404(toolId: string): ToolDefinition {
  const tool = findTool(toolId);
  if (!tool) throw notFound(`Unknown tool ${toolId}`);
  return tool;
}

export async function ownRequest(db: Db, uid: string, tool: ToolDefinition, requestId: string): Promise<RequestRow> {
  if (!UUID.test(requestId)) throw missingRequest();
  const [row] = await db
    .select()
    .from(productRequests)
    .where(and(eq(productRequests.id, requestId), eq(productRequests.userId, uid), eq(productRequests.toolId, tool.id)));
  if (!row) throw missingRequest();
  return row;
}

/** The user's requests and deals, one group per tool of the catalogue. */
export async function requestGroups(db: Db, links: SignedLinks, uid: string) {
  const [requestRows, dealRows] = await Promise.all([
    db.select().from(productRequests).where(eq(productRequests.userId, uid)).orderBy(desc(productRequests.createdAt), desc(productRequests.seq)),
    db.select().from(deals).where(eq(deals.userId, uid)).orderBy(desc(deals.createdAt), desc(deals.seq)),
  ]);
  return tools.map((tool) => ({
    productRequestType: tool.ToolNameBackend,
    requests: requestRows.filter((r) => r.productRequestType === tool.ToolNameBackend).map((row): ProductRequest => toRequest(row)),
    deals: dealRows.filter((d) => d.productRequestType === tool.ToolNameBackend).map((d): Deal => toDeal(d, links)),
  }));
}

export async function statusCounts(db: Db, uid: string): Promise<StatusCounts> {
  const rows = await db
    .select({ status: productRequests.status, n: count() })
    .from(productRequests)
    .where(eq(productRequests.userId, uid))
    .groupBy(productRequests.status);
  const n = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
  return { done: n('Done'), inProgress: n('In Progress'), pending: n('Pending'), waitingForActions: n('Waiting for actions') };
}

/** The user's requests of one tool, newest first. */
export async function toolRequests(db: Db, uid: string, toolId: string): Promise<RequestRow[]> {
  const tool = toolOr404(toolId);
  return db
    .select()
    .from(productRequests)
    .where(and(eq(productRequests.userId, uid), eq(productRequests.toolId, tool.id)))
    .orderBy(desc(productRequests.createdAt), desc(productRequests.seq));
}

/** The visits people made (a messaging app's preview fetch is not a visit: server/tracking/preview-bots.ts). */
async function peopleVisits(db: Db, requestId: string): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(visits).where(and(eq(visits.requestId, requestId), isNull(visits.preview)));
  return Number(n);
}

/** One request's details; a Track Master request adds how many visits its link has recorded so far. */
export async function requestDetails(db: Db, uid: string, toolId: string, requestId: string) {
  const tool = toolOr404(toolId);
  const row = await ownRequest(db, uid, tool, requestId);
  return { row, visits: tool.id === 'track-master' ? await peopleVisits(db, row.id) : undefined };
}

/** Track Master visits: a placeholder row count before payment in full, the visits after. */
export async function liveDetails(db: Db, uid: string, toolId: string, requestId: string): Promise<LiveDetails> {
  const tool = toolOr404(toolId);
  if (tool.id !== 'track-master') throw notFound('Live details exist for Track Master requests only');
  const row = await ownRequest(db, uid, tool, requestId);
  // Nothing of the visits leaks before payment in full, only how many rows to draw: the people's
  // visits, not the previews of messaging apps (those are shown apart once paid).
  if (!isFullyPaid(row)) return { id: row.id, data: Math.max(MIN_PLACEHOLDER_ROWS, await peopleVisits(db, row.id)) };
  const visitRows = await db.select().from(visits).where(eq(visits.requestId, row.id)).orderBy(desc(visits.time), desc(visits.id));
  return { id: row.id, data: visitRows.map(toVisit) };
}

/** A signed, 15-minute link to the final file of a fully paid request. */
export async function finalFileLink(db: Db, links: SignedLinks, uid: string, toolId: string, requestId: string): Promise<string> {
  const tool = toolOr404(toolId);
  const row = await ownRequest(db, uid, tool, requestId);
  if (!isFullyPaid(row)) throw new HttpError(403, 'NOT_FULLY_PAID', texts.notFullyPaid);
  if (!row.finalFileId) throw new HttpError(404, 'FILE_NOT_READY', 'The final file is not ready yet.');
  return links.link(row.finalFileId);
}

/** Settings → Billings: one row per deal, newest first. */
export async function billing(db: Db, links: SignedLinks, uid: string) {
  const rows = await db.select().from(deals).where(eq(deals.userId, uid)).orderBy(desc(deals.createdAt), asc(deals.id));
  return rows.map((row) => {
    const deal = toDeal(row, links);
    return {
      id: deal.id,
      tool: deal.productRequestType,
      toolName: toolByBackendName(deal.productRequestType)?.header ?? deal.productRequestType,
      date: deal.Created_Time,
      invoice: deal.invoice,
    };
  });
}
