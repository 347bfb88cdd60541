import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RequestStatus } from '../../domain/enums.ts';
import { blockedReason, type LifecycleState, type StaffAction, transitions } from '../../domain/lifecycle.ts';
import { deals, files, productRequests } from '../db/schema.ts';
import { seedClientData } from './seed-data.ts';
import { backends, createTestApp, postgresSkipReason, type TestApp } from '../test-helper.ts';
import { dollarsFromCents, dollarsOrNull } from '../../domain/money.ts';

const skip = postgresSkipReason();
if (skip) console.warn(`[seed-data.test] PostgreSQL run skipped: ${skip}`);

/** What a stored request shows of its history: the facts the lifecycle decides on. */
interface Seeded {
  status: RequestStatus;
  totalAmount: number | null;
  payments: number[];
  hasFinalFile: boolean;
  contractSigned: boolean;
}

/** Every path of transitions from Pending to `to` that visits no status twice. */
function pathsTo(to: RequestStatus, from: RequestStatus = 'Pending', seen: RequestStatus[] = []): (typeof transitions)[number][][] {
  if (from === to) return [[]];
  return transitions
    .filter((t) => t.from === from && !seen.includes(t.to))
    .flatMap((t) => pathsTo(to, t.to, [...seen, from]).map((rest) => [t, ...rest]));
}

/**
 * Replays a request through the lifecycle table along one path from Pending, taking each operation the
 * stored row shows (its payments, final file, signed contract) at the first status that allows it, and
 * every transition only when blockedReason allows it. Null when the row is reached; else what refused it.
 */
function replay(row: Seeded, path: (typeof transitions)[number][]): string | null {
  const state: LifecycleState = { status: 'Pending', hasFinalFile: false, contractSigned: false, leftToPay: null };
  const payments = [...row.payments];
  let fileLeft = row.hasFinalFile;
  let contractLeft = row.contractSigned;
  const take = (action: StaffAction) => blockedReason(action, state) === null;
  const operate = () => {
    while (payments.length > 0 && take('payment')) {
      state.leftToPay = (state.leftToPay ?? 0) - (payments.shift() as number);
      if (state.leftToPay < 0) return 'paid more than its total';
    }
    if (fileLeft && take('deliver')) [fileLeft, state.hasFinalFile] = [false, true];
    if (contractLeft && take('contract')) [contractLeft, state.contractSigned] = [false, true];
    return null;
  };
  for (const step of path) {
    const overpaid = operate();
    if (overpaid) return overpaid;
    const reason = blockedReason(step.action, state);
    if (reason) return `${step.label} from ${state.status}: ${reason}`;
    if (step.action === 'price') {
      if (row.totalAmount === null) return 'priced without a total';
      state.leftToPay = row.totalAmount;
    }
    state.status = step.to;
  }
  const overpaid = operate();
  if (overpaid) return overpaid;
  if (payments.length > 0) return `payments on a request that is ${row.status}`;
  if (fileLeft) return `a final file on a request that is ${row.status}`;
  if (contractLeft) return `a signed contract on a request that is ${row.status}`;
  if (row.totalAmount !== null && state.leftToPay === null) return `a total on a request never priced`;
  return null;
}

/** Why no path of the lifecycle reaches this row, or null when one does. */
function unreachable(row: Seeded): string | null {
  const refusals = pathsTo(row.status).map((path) => replay(row, path));
  return refusals.length === 0 ? `no transition reaches ${row.status}` : refusals.includes(null) ? null : refusals.join('; ');
}

describe('the lifecycle replay itself', () => {
  const done = { status: 'Done', totalAmount: 100, payments: [40, 60], hasFinalFile: true, contractSigned: true } as const;
  it('reaches a Done request with its final file, and refuses one without', () => {
    expect(unreachable({ ...done, payments: [...done.payments] })).toBeNull();
    expect(unreachable({ ...done, payments: [...done.payments], hasFinalFile: false })).toContain('Upload the final file before marking the request as Done.');
  });
  it('refuses a final file on a Pending request and payments past the total', () => {
    expect(unreachable({ status: 'Pending', totalAmount: null, payments: [], hasFinalFile: true, contractSigned: false })).toContain('a final file');
    expect(unreachable({ ...done, payments: [80, 80] })).toContain('paid more than its total');
  });
});

describe.each(backends())('the demo data obeys the lifecycle (%s)', (backend) => {
  let t: TestApp;
  let rows: (Seeded & { id: string; toolId: string; paid: number; finalFileKind: string | null })[];

  beforeAll(async () => {
    t = await createTestApp({ backend });
    const client = await t.user({ client: true });
    await seedClientData(t.services.db, client.uid, t.services.storage);
    const requests = await t.services.db.select().from(productRequests).where(eq(productRequests.userId, client.uid));
    const dealRows = await t.services.db.select().from(deals).where(eq(deals.userId, client.uid));
    const finalIds = requests.flatMap((r) => (r.finalFileId ? [r.finalFileId] : []));
    const finals = finalIds.length ? await t.services.db.select().from(files).where(inArray(files.id, finalIds)) : [];
    rows = requests.map((r) => ({
      id: r.id,
      toolId: r.toolId,
      status: r.status as RequestStatus,
      totalAmount: dollarsOrNull(r.totalCents),
      paid: dollarsFromCents(r.paidCents),
      payments: dealRows
        .filter((d) => d.requestId === r.id)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
        .map((d) => dollarsFromCents(d.amountCents)),
      hasFinalFile: r.finalFileId !== null,
      finalFileKind: finals.find((f) => f.id === r.finalFileId)?.kind ?? null,
      contractSigned: r.contractSigned,
    }));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('seeds requests in every status', () => {
    expect(new Set(rows.map((r) => r.status))).toEqual(new Set(['Pending', 'Waiting for actions', 'In Progress', 'Done', 'Rejected']));
  });

  it('holds only requests the lifecycle table can reach from Pending', () => {
    const refused = rows.flatMap((r) => {
      const why = unreachable(r);
      return why ? [`${r.toolId} ${r.status}: ${why}`] : [];
    });
    expect(refused).toEqual([]);
  });

  it('gives every Done request its final file, stored as a final file of that request', async () => {
    const done = rows.filter((r) => r.status === 'Done');
    expect(done.length).toBeGreaterThan(0);
    for (const r of done) expect({ id: r.toolId, kind: r.finalFileKind }).toEqual({ id: r.toolId, kind: 'final' });
  });

  it('keeps a request paid in full whose report is not ready, as In Progress', () => {
    expect(rows.some((r) => r.status === 'In Progress' && r.totalAmount !== null && r.paid >= r.totalAmount && !r.hasFinalFile)).toBe(true);
  });
});
