import type { AuditEntry } from '../../../../domain/staff.ts';
import { changeLine, changedFields, fieldFormats } from './field-formats.ts';

const actionText: Record<AuditEntry['action'], string> = {
  approve: 'Approved the client',
  price: 'Set the price',
  transition: 'Changed the status',
  payment: 'Recorded a payment',
  contract: 'Marked the contract signed',
  deliver: 'Uploaded a final file',
  role: 'Changed the staff role',
  notification: 'Sent a notification',
  reply: 'Replied to the client',
  thread: 'Changed the conversation',
  refund: 'Decided a refund',
  'tracking-link': 'Changed a tracking link',
  'business-settings': 'Changed the business settings',
  'payment-details-proposed': 'Proposed new payment details',
  'payment-details-approved': 'Approved new payment details',
  'payment-details-rejected': 'Rejected new payment details',
  'payment-details-withdrawn': 'Withdrew a change of the payment details',
  'delivery-retry': 'Sent a notification again',
  'second-factor': 'Changed a second factor',
  session: 'Signed out a device',
  'account-disabled': 'Disabled or enabled the account',
  'client-data-exported': "Exported the client's data",
};

/** A conversation closed or reopened, a refund approved or declined: the entry's own outcome says which. */
const outcomeText: Partial<Record<AuditEntry['action'], Record<string, string>>> = {
  thread: { closed: 'Closed the conversation', open: 'Reopened the conversation' },
  refund: { approved: 'Approved a refund', declined: 'Declined a refund' },
};

function summaryOf(action: AuditEntry['action'], before: unknown, after: unknown): string {
  if (action === 'tracking-link' && isRecord(after)) {
    if (!isRecord(before)) return 'Made a tracking link';
    return after.disabled === true ? 'Disabled a tracking link' : 'Enabled a tracking link';
  }
  // A role entry with isAdmin is a change of the admin role; one with isStaff alone, of the staff role.
  if (action === 'role' && isRecord(after) && typeof after.isAdmin === 'boolean') return after.isAdmin ? 'Made an admin' : 'Removed the admin role';
  const status = isRecord(after) && typeof after.status === 'string' ? after.status : undefined;
  return (status && outcomeText[action]?.[status]) ?? actionText[action] ?? action;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * One readable line per audit entry ("Set the price") and what it changed ("Total: Awaiting definition →
 * $500.00"). The log stores whole before/after snapshots; only the fields people act on are spelled out.
 */
export function describeAudit(entry: Pick<AuditEntry, 'action' | 'before' | 'after'>): { summary: string; changes: string[] } {
  const { before, after } = entry;
  const summary = summaryOf(entry.action, before, after);
  if (isRecord(after) && !isRecord(before)) {
    // Something new (a payment, a file, a notification): what it was.
    const changes = Object.keys(fieldFormats)
      .filter((key) => key in after && after[key] !== null && after[key] !== undefined && after[key] !== '')
      .map((key) => `${fieldFormats[key].label}: ${fieldFormats[key].format(after[key])}`);
    return { summary, changes };
  }
  if (isRecord(before) && isRecord(after)) {
    // A field only `after` has is a fact of the action (the payment's amount), not a change of the record.
    const changes = changedFields(before, after).map((key) =>
      key in before ? changeLine(key, before[key], after[key]) : `${fieldFormats[key].label}: ${fieldFormats[key].format(after[key])}`,
    );
    return { summary, changes };
  }
  if (before !== after && (before !== null || after !== null) && !isRecord(before) && !isRecord(after)) {
    return { summary, changes: [`${String(before ?? 'None')} → ${String(after ?? 'None')}`] };
  }
  return { summary, changes: [] };
}
