import { requestStatuses, statusLabel, type RequestStatus } from '../../../../domain/enums.ts';
import { capitalise, formatDate, formatMoney } from '../../../../domain/format.ts';
import { paymentMethodLabel, paymentMethods, type PaymentMethod } from '../../../../domain/staff.ts';

/**
 * How the fields staff care about read on screen, for the history and the conflict screen. Fields not
 * listed (ids, versions, timestamps) are bookkeeping and are not shown as changes.
 */
export const fieldFormats: Record<string, { label: string; format(value: unknown): string }> = {
  // A request's status by its label; a thread's (open, closed) or a refund's (requested, approved…) capitalised.
  status: { label: 'Status', format: (v) => (requestStatuses.includes(v as RequestStatus) ? statusLabel[v as RequestStatus] : typeof v === 'string' && v ? capitalise(v) : text(v)) },
  totalAmount: { label: 'Total', format: money },
  paid: { label: 'Paid', format: money },
  leftToPay: { label: 'Left to pay', format: money },
  contractSigned: { label: 'Contract signed', format: yesNo },
  finalFileId: { label: 'Final file', format: (v) => (v ? 'Uploaded' : 'None') },
  rejectionReason: { label: 'Rejection reason', format: (v) => (v ? `“${String(v)}”` : 'None') },
  isClient: { label: 'Approved', format: yesNo },
  isStaff: { label: 'Staff role', format: yesNo },
  isAdmin: { label: 'Admin', format: yesNo },
  amount: { label: 'Amount', format: money },
  method: { label: 'Method', format: (v) => (paymentMethods.includes(v as PaymentMethod) ? paymentMethodLabel[v as PaymentMethod] : text(v)) },
  paidAt: { label: 'Paid on', format: (v) => formatDate(v as string) || text(v) },
  reference: { label: 'Reference', format: text },
  invoiceNumber: { label: 'Invoice', format: text },
  name: { label: 'File', format: text },
  message: { label: 'Message', format: (v) => (v ? `“${String(v)}”` : 'None') },
  note: { label: 'Note', format: (v) => (v ? `“${String(v)}”` : 'None') },
};

function money(v: unknown): string {
  return typeof v === 'number' || v === null ? formatMoney(v) : text(v);
}

function yesNo(v: unknown): string {
  return v ? 'Yes' : 'No';
}

function text(v: unknown): string {
  if (v === null || v === undefined || v === '') return 'None';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** "Status: Pending → Awaiting Payment". Two values that read the same (a replaced file) say only that it changed. */
export function changeLine(field: string, before: unknown, after: unknown): string {
  const f = fieldFormats[field];
  const label = f?.label ?? field;
  const format = f?.format ?? text;
  const [from, to] = [format(before), format(after)];
  return from === to ? `${label}: changed` : `${label}: ${from} → ${to}`;
}

/** The shown fields that differ between two versions of a record, in the order of `fieldFormats`. */
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(fieldFormats).filter((key) => (key in before || key in after) && !sameValue(before[key], after[key]));
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
