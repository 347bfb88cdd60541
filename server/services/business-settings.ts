import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  BUSINESS_SETTINGS_ID,
  type BusinessSettings,
  type BusinessSettingsFields,
  type BusinessSettingsWrite,
  type PaymentDetails,
  type PaymentDetailsProposal,
  paymentDetailsOf,
  samePaymentDetails,
} from '../../domain/business-settings.ts';
import type { Db } from '../db/client.ts';
import { businessSettings, notifications, paymentDetailsProposals, users } from '../db/schema.ts';
import { HttpError, conflict, notFound } from '../platform/errors.ts';
import { UUID } from '../files/storage.ts';
import { writeAudit } from './audit.ts';
import { type Actor, type PokeTarget, staffWrite } from './staff-write.ts';

type Row = typeof businessSettings.$inferSelect;
type ProposalRow = typeof paymentDetailsProposals.$inferSelect;

/**
 * The payment instructions and official channels (docs/decisions/016-business-settings-and-how-to-pay.md). A save
 * carries the version it was edited from (null before any settings exist): a stale one is 409 with the current row.
 * Change and audit row commit together; then every connected app is poked, because every user's feed carries the row.
 *
 * Where clients pay changes only with four eyes (docs/decisions/032-payment-details-four-eyes.md): a save whose
 * account holder, bank, account number or BIC differ from the current ones writes a pending proposal instead, tells
 * every admin (in the app, and by push and email), and leaves what clients see as it is until a second admin
 * approves it. Every write here locks the settings row first, so saves and decisions run one after the other.
 */

/** The settings; null before an admin saved any. */
export async function currentSettings(db: Db): Promise<Row | undefined> {
  const [row] = await db.select().from(businessSettings).where(eq(businessSettings.id, BUSINESS_SETTINGS_ID));
  return row;
}

interface Saved {
  row: Row;
  proposal: ProposalRow | null;
  /** Whether the row clients get changed (then everyone is poked), and the admins told of a new proposal. */
  rowChanged: boolean;
  told: string[];
}

export function saveSettings(app: FastifyInstance, request: FastifyRequest, version: number | null, fields: BusinessSettingsFields) {
  return staffWrite(app, request, {
    lock: lockSettings,
    check: (_tx, before) => {
      if ((before?.version ?? null) !== version) throw staleVersion(before);
    },
    change: async (tx, before, actor) => ({ done: await save(app, tx, before, fields, actor) }),
    status: 200,
    answer: (saved): { data: BusinessSettingsWrite } => ({ data: { settings: toBusinessSettings(saved.row), proposal: saved.proposal ? toProposal(saved.proposal) : null } }),
    // Every user's feed carries the row; a proposal alone reaches only the admins' feeds (their notification).
    poke: (saved): PokeTarget => (saved.rowChanged ? 'everyone' : { users: saved.told }),
  });
}

/**
 * The first settings are saved as they are: no client was ever told where to pay, so there is nothing to swap (and
 * a new install often has one admin). From then on, new payment details are a proposal and the other fields save.
 */
async function save(app: FastifyInstance, tx: Db, before: Row | undefined, fields: BusinessSettingsFields, actor: Actor): Promise<Saved> {
  if (!before) {
    const row = await insertFirst(tx, fields);
    await writeAudit(tx, settingsAudit(actor, null, fields));
    return { row, proposal: null, rowChanged: true, told: [] };
  }
  const current = paymentDetailsOf(before);
  const asked = paymentDetailsOf(fields);
  const paymentChanged = !samePaymentDetails(current, asked);
  let proposal: ProposalRow | null = null;
  let told: string[] = [];
  if (paymentChanged) ({ proposal, told } = await propose(app, tx, current, asked, actor));
  // Without a change of where clients pay, a save is what it always was (a new version even when nothing moved).
  const others = { ...fields, ...current };
  const othersChanged = !paymentChanged || (Object.keys(others) as (keyof BusinessSettingsFields)[]).some((k) => JSON.stringify(others[k]) !== JSON.stringify(before[k]));
  if (!othersChanged) return { row: before, proposal, rowChanged: false, told };
  const [row] = await tx
    .update(businessSettings)
    .set({ ...others, version: sql`${businessSettings.version} + 1`, updatedAt: sql`now()` })
    .where(eq(businessSettings.id, BUSINESS_SETTINGS_ID))
    .returning();
  await writeAudit(tx, settingsAudit(actor, fieldsOf(before), others));
  return { row, proposal, rowChanged: true, told };
}

/**
 * One pending proposal at a time. The admin's own pending one is replaced by the new one (they corrected a typo);
 * another admin's is left alone and the save is refused (409): it may be the one a colleague is checking right now,
 * and swapping what they are about to approve is exactly the attack four eyes is for. The same values as the
 * admin's own pending one change nothing (a form saved again for another field).
 */
async function propose(app: FastifyInstance, tx: Db, current: PaymentDetails, asked: PaymentDetails, actor: Actor): Promise<{ proposal: ProposalRow; told: string[] }> {
  const pending = await lockPending(tx);
  if (pending && pending.proposedByUid !== actor.uid) {
    throw conflict('PROPOSAL_PENDING', `${pending.proposedByEmail} proposed new payment details that await approval. Approve or reject them first, then propose yours.`, {
      proposal: toProposal(pending),
    });
  }
  if (pending && samePaymentDetails(detailsOf(pending), asked)) return { proposal: pending, told: [] };
  if (pending) await decide(tx, pending, 'replaced', actor);
  const [proposal] = await tx
    .insert(paymentDetailsProposals)
    .values({ proposedByUid: actor.uid, proposedByEmail: actor.email, before: current, ...asked })
    .returning();
  await writeAudit(tx, {
    actor,
    action: 'payment-details-proposed',
    entityType: 'payment-details',
    entityId: proposal.id,
    subjectUid: null,
    before: current,
    after: { ...asked, ...(pending ? { replaces: pending.id } : {}) },
  });
  const admins = await adminUids(tx);
  const message = `${actor.email} proposed new payment details for clients (bank: ${asked.bankName}, account: ${asked.accountNumber}). A second admin must approve them before clients see them. Check with ${actor.email} in person or by phone first; if you did not expect this, reject it in Business settings.`;
  for (const uid of admins) await tell(app, tx, uid, message, { kind: 'paymentDetailsProposed', key: `paymentDetailsProposal:${proposal.id}`, facts: { proposalId: proposal.id } });
  return { proposal, told: admins };
}

export type Decision = 'approve' | 'reject' | 'withdraw';

/**
 * A pending proposal decided by an admin: approved by a second admin (its values become what clients see, with the
 * time of the change, and everyone is poked), rejected by another admin, or withdrawn by the admin who made it.
 * The proposal's id names exactly the values the admin looked at: proposals never change, so no version is needed.
 */
export function decideProposal(app: FastifyInstance, request: FastifyRequest, proposalId: string, decision: Decision) {
  return staffWrite(app, request, {
    lock: async (tx) => {
      const settings = await lockSettings(tx);
      if (!UUID.test(proposalId)) throw notFound('Proposal not found');
      const [proposal] = await tx.select().from(paymentDetailsProposals).where(eq(paymentDetailsProposals.id, proposalId)).for('update');
      if (!proposal) throw notFound('Proposal not found');
      return { settings, proposal };
    },
    check: async (tx, { settings, proposal }, actor) => {
      if (proposal.status !== 'pending') {
        throw conflict('PROPOSAL_DECIDED', `This proposal was already ${proposal.status}. Open the business settings again to see where things stand.`, { proposal: toProposal(proposal) });
      }
      const own = proposal.proposedByUid === actor.uid;
      if (decision === 'approve' && own) throw new HttpError(403, 'OWN_PROPOSAL', 'You proposed this change: a second admin must approve it.');
      if (decision === 'reject' && own) throw new HttpError(403, 'OWN_PROPOSAL', 'You proposed this change: withdraw it instead.');
      if (decision === 'withdraw' && !own) throw new HttpError(403, 'NOT_YOUR_PROPOSAL', `Only ${proposal.proposedByEmail}, who proposed it, can withdraw it. You may reject it.`);
      if (decision === 'approve') {
        if (!settings || !samePaymentDetails(paymentDetailsOf(settings), proposal.before)) {
          throw conflict('PROPOSAL_STALE', 'The payment details changed since this was proposed. Reject it and propose again from the current ones.');
        }
        // An admin removed from the team (perhaps because the account was stolen) leaves no change to approve.
        const [proposer] = await tx.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.uid, proposal.proposedByUid));
        if (!proposer?.isAdmin) throw conflict('PROPOSER_NOT_ADMIN', `${proposal.proposedByEmail} is no longer an admin. Reject this change.`);
      }
    },
    change: async (tx, { settings, proposal }, actor) => {
      const status = decision === 'approve' ? 'approved' : decision === 'reject' ? 'rejected' : 'withdrawn';
      const decided = await decide(tx, proposal, status, actor);
      let row = settings;
      if (decision === 'approve') {
        [row] = await tx
          .update(businessSettings)
          .set({ ...detailsOf(proposal), version: sql`${businessSettings.version} + 1`, updatedAt: sql`now()`, paymentDetailsChangedAt: sql`now()` })
          .where(eq(businessSettings.id, BUSINESS_SETTINGS_ID))
          .returning();
      }
      await writeAudit(tx, {
        actor,
        action: `payment-details-${status}`,
        entityType: 'payment-details',
        entityId: proposal.id,
        subjectUid: null,
        before: proposal.before,
        after: { ...detailsOf(proposal), proposedBy: proposal.proposedByEmail },
      });
      if (decision !== 'withdraw') {
        const approved = decision === 'approve';
        const message = approved
          ? `${actor.email} approved your new payment details. Clients see them now, with a notice that they changed.`
          : `${actor.email} rejected your new payment details. Clients keep seeing the current ones.`;
        await tell(app, tx, proposal.proposedByUid, message, { kind: 'paymentDetailsDecided', key: `paymentDetailsDecided:${proposal.id}`, facts: { proposalId: proposal.id, approved } });
      }
      return { done: { row, proposal: decided, approved: decision === 'approve' } };
    },
    status: 200,
    answer: ({ row, proposal }): { data: BusinessSettingsWrite } => ({ data: { settings: toBusinessSettings(row!), proposal: toProposal(proposal) } }),
    poke: ({ approved, proposal }): PokeTarget => (approved ? 'everyone' : { users: decision === 'reject' ? [proposal.proposedByUid] : [] }),
  });
}

/** GET …/proposal: the pending proposal and how many admins could approve it. */
export async function pendingReview(db: Db): Promise<{ proposal: PaymentDetailsProposal | null; admins: number }> {
  const [pending] = await db.select().from(paymentDetailsProposals).where(eq(paymentDetailsProposals.status, 'pending'));
  const [{ count }] = await db.select({ count: sql<number>`count(*)::int` }).from(users).where(eq(users.isAdmin, true));
  return { proposal: pending ? toProposal(pending) : null, admins: Number(count) };
}

/** Row → API shape, for the settings' routes and the sync feed (routes/sync.ts) alike. */
export function toBusinessSettings(row: Row): BusinessSettings {
  return {
    id: BUSINESS_SETTINGS_ID,
    accountHolder: row.accountHolder,
    bankName: row.bankName,
    accountNumber: row.accountNumber,
    bic: row.bic,
    paymentNote: row.paymentNote,
    officialEmails: row.officialEmails,
    officialDomains: row.officialDomains,
    officialPhones: row.officialPhones,
    version: row.version,
    updatedAt: new Date(row.updatedAt).toISOString(),
    paymentDetailsChangedAt: row.paymentDetailsChangedAt ? new Date(row.paymentDetailsChangedAt).toISOString() : null,
  };
}

export function toProposal(row: ProposalRow): PaymentDetailsProposal {
  return {
    id: row.id,
    status: row.status as PaymentDetailsProposal['status'],
    proposedBy: { uid: row.proposedByUid, email: row.proposedByEmail },
    proposedAt: new Date(row.proposedAt).toISOString(),
    before: paymentDetailsOf(row.before),
    after: detailsOf(row),
    decidedBy: row.decidedByUid ? { uid: row.decidedByUid, email: row.decidedByEmail ?? '' } : null,
    decidedAt: row.decidedAt ? new Date(row.decidedAt).toISOString() : null,
  };
}

async function lockSettings(tx: Db): Promise<Row | undefined> {
  const [row] = await tx.select().from(businessSettings).where(eq(businessSettings.id, BUSINESS_SETTINGS_ID)).for('update');
  return row;
}

async function lockPending(tx: Db): Promise<ProposalRow | undefined> {
  const [row] = await tx.select().from(paymentDetailsProposals).where(eq(paymentDetailsProposals.status, 'pending')).for('update');
  return row;
}

async function decide(tx: Db, proposal: ProposalRow, status: 'approved' | 'rejected' | 'withdrawn' | 'replaced', actor: Actor): Promise<ProposalRow> {
  const [row] = await tx
    .update(paymentDetailsProposals)
    .set({ status, decidedByUid: actor.uid, decidedByEmail: actor.email, decidedAt: sql`now()` })
    .where(and(eq(paymentDetailsProposals.id, proposal.id), eq(paymentDetailsProposals.status, 'pending')))
    .returning();
  return row;
}

async function adminUids(tx: Db): Promise<string[]> {
  const rows = await tx.select({ uid: users.uid }).from(users).where(eq(users.isAdmin, true)).orderBy(users.uid);
  return rows.map((r) => r.uid);
}

/** An admin's in-app notification and its push and email, written in the transaction of the change. */
async function tell(
  app: FastifyInstance,
  tx: Db,
  uid: string,
  message: string,
  event: { kind: 'paymentDetailsProposed' | 'paymentDetailsDecided'; key: string; facts: { proposalId: string; approved?: boolean } },
): Promise<void> {
  const [notification] = await tx.insert(notifications).values({ userId: uid, message }).returning({ id: notifications.id });
  await app.deliveries.record(tx, { ...event, to: { uid }, notificationId: notification.id });
}

/**
 * Two admins saving their first settings at once: both read no row, and the primary key lets one insert
 * win; the other's insert does nothing and is answered 409 like any stale edit.
 */
async function insertFirst(tx: Db, fields: BusinessSettingsFields): Promise<Row> {
  const [row] = await tx
    .insert(businessSettings)
    .values({ id: BUSINESS_SETTINGS_ID, ...fields })
    .onConflictDoNothing()
    .returning();
  if (!row) throw staleVersion(await lockSettings(tx));
  return row;
}

function detailsOf(row: ProposalRow): PaymentDetails {
  return paymentDetailsOf(row);
}

function fieldsOf(row: Row): BusinessSettingsFields {
  const { accountHolder, bankName, accountNumber, bic, paymentNote, officialEmails, officialDomains, officialPhones } = row;
  return { accountHolder, bankName, accountNumber, bic, paymentNote, officialEmails, officialDomains, officialPhones };
}

function settingsAudit(actor: Actor, before: BusinessSettingsFields | null, after: BusinessSettingsFields) {
  return { actor, action: 'business-settings' as const, entityType: 'business-settings' as const, entityId: BUSINESS_SETTINGS_ID, subjectUid: null, before, after };
}

function staleVersion(current: Row | undefined) {
  return conflict('VERSION_CONFLICT', 'Someone else changed the business settings since you opened them. Look at them again, then retry.', {
    current: current ? toBusinessSettings(current) : null,
  });
}
