import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formatCents } from '../../domain/format.ts';
import { blockedReason } from '../../domain/lifecycle.ts';
import { type Cents, cents, centsFromDollars, dollarsFromCents } from '../../domain/money.ts';
import { type PaymentBody, paymentMethodLabel } from '../../domain/staff.ts';
import { requestName } from '../../domain/tools.ts';
import type { Db } from '../db/client.ts';
import { deals, files, users } from '../db/schema.ts';
import { renderInvoicePdf } from '../files/invoices.ts';
import type { SignedLinks } from '../files/signed-links.ts';
import type { StoredFile } from '../files/storage.ts';
import { clientName, toStaffDeal, toStaffRequest } from '../serialize/rows.ts';
import type { AuditRecord } from './audit.ts';
import { checkRequestVersion, lifecycleState, notAllowed, toolHeader } from './request-lifecycle.ts';
import { requestFacts } from '../notify/record.ts';
import { type Actor, lockRequest, type RequestRow, type StaffChange, staffWrite, updateRequest, validation } from './staff-write.ts';

type DealRow = typeof deals.$inferSelect;

/**
 * A payment staff record: a deal with its invoice PDF, never more than what is left to pay. The PDF is stored
 * before the transaction commits (its files row is part of it), so a rollback removes the stored bytes again.
 */
export async function recordPayment(app: FastifyInstance, request: FastifyRequest, requestId: string, body: PaymentBody, links: SignedLinks) {
  const written: StoredFile[] = [];
  const save: SaveFile = async (pdf, name) => {
    const stored = await app.storage.save(pdf, name);
    written.push(stored);
    return stored;
  };
  try {
    return await staffWrite(app, request, {
      lock: (tx) => lockRequest(tx, requestId),
      check: (_tx, row) => checkRequestVersion(row, body.version),
      change: (tx, row, actor) => writePayment(tx, row, body, actor, save),
      status: 201,
      answer: (recorded) => ({ data: { request: toStaffRequest(recorded.request), deal: toStaffDeal(recorded.deal, links) } }),
      poke: (recorded) => ({ client: recorded.request.userId }),
    });
  } catch (err) {
    // The transaction rolled back: the invoice it stored must not stay behind without its row.
    await Promise.allSettled(written.map((file) => app.storage.remove(file.storedName)));
    throw err;
  }
}

/** What the deals of a request add up to, in cents: the one source of `paid`. */
async function paidCentsOf(tx: Db, requestId: string): Promise<Cents> {
  const [row] = await tx
    .select({ cents: sql<string>`coalesce(sum(${deals.amountCents}), 0)::text` })
    .from(deals)
    .where(eq(deals.requestId, requestId));
  return cents(Number(row.cents));
}

/** One sequence, so two payments recorded at once never share a number (gaps after a rollback are fine). */
async function nextInvoiceNumber(tx: Db): Promise<string> {
  const result = await tx.execute(sql`SELECT nextval('invoice_number_seq')::text AS n`);
  const [row] = (result as unknown as { rows: { n: string }[] }).rows;
  return `INV-${row.n}`;
}

type SaveFile = (data: Buffer, name: string) => Promise<StoredFile>;

async function writePayment(tx: Db, row: RequestRow, body: PaymentBody, actor: Actor, save: SaveFile): Promise<StaffChange<{ request: RequestRow; deal: DealRow }>> {
  const paidBefore = await paidCentsOf(tx, row.id);
  const state = lifecycleState(row, paidBefore);
  const blocked = blockedReason('payment', state);
  // blockedReason refuses a payment on an unpriced request; the second test tells TypeScript so.
  if (blocked || row.totalCents === null) throw notAllowed('ACTION_NOT_ALLOWED', blocked ?? 'Nothing is left to pay on this request.', state);
  const amount = centsFromDollars(body.amount);
  const total = row.totalCents;
  const leftBefore = cents(total - paidBefore);
  if (amount > leftBefore) throw validation(`amount: ${formatCents(amount)} is more than the ${formatCents(leftBefore)} left to pay`);

  const invoiceNumber = await nextInvoiceNumber(tx);
  const invoiceFileId = await storeInvoice(tx, row, { invoiceNumber, amount, total, paidToDate: cents(paidBefore + amount), body }, save);
  const [deal] = await tx
    .insert(deals)
    .values({
      requestId: row.id,
      userId: row.userId,
      productRequestType: row.productRequestType,
      amountCents: amount,
      invoiceUrl: invoiceFileId,
      method: body.method,
      reference: body.reference || null,
      paidAt: body.paidAt,
      invoiceNumber,
      recordedBy: actor.uid,
    })
    .returning();
  const paidAfter = await paidCentsOf(tx, row.id);
  const updated = await updateRequest(tx, row, { paidCents: paidAfter });
  const audit: AuditRecord = {
    actor,
    action: 'payment',
    entityType: 'deal',
    entityId: deal.id,
    subjectUid: row.userId,
    requestId: row.id,
    // The history keeps the wire's dollars, as every audit entry shows amounts.
    before: { paid: dollarsFromCents(paidBefore), leftToPay: dollarsFromCents(leftBefore) },
    after: {
      paid: dollarsFromCents(paidAfter),
      leftToPay: dollarsFromCents(cents(total - paidAfter)),
      dealId: deal.id,
      invoiceNumber,
      amount: dollarsFromCents(deal.amountCents),
      method: body.method,
    },
  };
  const message = paymentMessage(updated, deal.amountCents, invoiceNumber, paidAfter >= total);
  return {
    done: { request: updated, deal },
    audit,
    notify: { userId: row.userId, message },
    deliver: { kind: 'payment', key: `deal:${deal.id}`, to: { uid: row.userId }, facts: requestFacts(updated) },
  };
}

interface InvoiceFacts {
  invoiceNumber: string;
  amount: Cents;
  total: Cents;
  paidToDate: Cents;
  body: PaymentBody;
}

/** Renders and stores the invoice PDF and its files row; returns the file id the deal points to. */
async function storeInvoice(tx: Db, row: RequestRow, facts: InvoiceFacts, save: SaveFile): Promise<string> {
  const [client] = await tx.select().from(users).where(eq(users.uid, row.userId));
  const pdf = await renderInvoicePdf({
    number: facts.invoiceNumber,
    date: new Date(),
    client: { name: clientName(client), email: client.email },
    service: toolHeader(row),
    requestId: row.id,
    amount: facts.amount,
    paidAt: facts.body.paidAt,
    method: paymentMethodLabel[facts.body.method],
    reference: facts.body.reference,
    total: facts.total,
    paidToDate: facts.paidToDate,
    leftToPay: cents(facts.total - facts.paidToDate),
  });
  const name = `${facts.invoiceNumber}.pdf`;
  const stored = await save(pdf, name);
  const [file] = await tx
    .insert(files)
    .values({
      userId: row.userId,
      kind: 'invoice',
      requestId: row.id,
      originalName: name,
      storedName: stored.storedName,
      contentType: stored.contentType,
      size: stored.size,
      sha256: stored.sha256,
    })
    .returning({ id: files.id });
  return file.id;
}

function paymentMessage(row: RequestRow, amount: Cents, invoiceNumber: string, paidInFull: boolean): string {
  const request = requestName(row, toolHeader(row));
  const received = `We received your payment of ${formatCents(amount)} for your ${request}. Invoice ${invoiceNumber} is in Settings → Billings.`;
  return paidInFull ? `${received} It is now paid in full.` : received;
}

