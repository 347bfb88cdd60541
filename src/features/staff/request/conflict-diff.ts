import type { StaffRequest } from '../../../../domain/staff.ts';
import { diffRecords } from '../shared/record-diff.ts';

/** The request fields whose change can make an action wrong: the status, the money, the contract, the delivery. */
export const requestConflictFields = ['status', 'totalAmount', 'paid', 'leftToPay', 'contractSigned', 'finalFileId', 'rejectionReason'] as const satisfies readonly (keyof StaffRequest)[];

/** What someone else changed on the request since we displayed it, one "Field: before → after" line each. */
export function requestConflictChanges(before: StaffRequest, after: StaffRequest): string[] {
  return diffRecords(before, after, requestConflictFields);
}
