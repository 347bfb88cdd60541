import { z } from 'zod';

export const requestStatuses = ['Pending', 'Waiting for actions', 'In Progress', 'Rejected', 'Done'] as const;
export const RequestStatus = z.enum(requestStatuses);
export type RequestStatus = z.infer<typeof RequestStatus>;

/** How a status is labelled on screen: the spec shows "Waiting for actions" as Awaiting Payment. */
export const statusLabel: Record<RequestStatus, string> = {
  Pending: 'Pending',
  'Waiting for actions': 'Awaiting Payment',
  'In Progress': 'In Progress',
  Rejected: 'Rejected',
  Done: 'Done',
};

export function isRequestStatus(value: string): value is RequestStatus {
  return (requestStatuses as readonly string[]).includes(value);
}

/**
 * The label of any status the replica may hold. A newer server can send a status this app does not know yet
 * (the client's sync keeps such rows rather than failing them); it reads as the server wrote it.
 */
export function statusLabelOf(status: string): string {
  return isRequestStatus(status) ? statusLabel[status] : status;
}

export const fraudTypes = ['CRYPTO', 'INVESTMENTS', 'PHISHING', 'ROMANCE', 'JOB', 'ELSE'] as const;
export const FraudType = z.enum(fraudTypes);
export const fraudTypeLabel: Record<(typeof fraudTypes)[number], string> = {
  CRYPTO: 'Crypto',
  INVESTMENTS: 'Investments',
  PHISHING: 'Phishing',
  ROMANCE: 'Romance',
  JOB: 'Job fraud',
  ELSE: 'Else',
};

export const refundTypes = ['PARTIAL', 'FULL'] as const;
export const RefundType = z.enum(refundTypes);
export const refundTypeLabel = { PARTIAL: 'Partial refund', FULL: 'Full refund' } as const;

export const activityStatuses = ['ACTIVE', 'IN_ACTIVE'] as const;
export const ActivityStatus = z.enum(activityStatuses);
export type ActivityStatus = z.infer<typeof ActivityStatus>;

/**
 * What a service-desk deadline waits for: the first reply to a client's message, the next reply in a thread, a new
 * request's price, a lead's approval.
 */
export const deadlineKinds = ['firstReply', 'nextReply', 'pricing', 'approval'] as const;

export const recordModules = ['leads', 'contacts'] as const;
export const RecordModule = z.enum(recordModules);
