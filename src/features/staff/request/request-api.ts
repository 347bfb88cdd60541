import { z } from 'zod';
import type { RequestStatus } from '../../../../domain/enums.ts';
import { type PaymentMethod, StaffDeal, StaffRequest } from '../../../../domain/staff.ts';
import { type NewTrackingLinkBody, StaffTrackingLink } from '../../../../domain/tracking.ts';
import { apiRequest, apiSend, readData } from '../../../lib/api.ts';

/** The staff writes on one request. Each carries the version the staff member was looking at. */

const base = (requestId: string) => `/staff/requests/${encodeURIComponent(requestId)}`;

export const PaymentAnswer = z.object({ request: StaffRequest, deal: StaffDeal });

export function sendTransition(
  requestId: string,
  body: { to: RequestStatus; version: number; totalAmount?: number; contractSigned?: boolean; reason?: string },
) {
  return apiSend(`${base(requestId)}/transition`, 'POST', body, StaffRequest);
}

export function sendContractSigned(requestId: string, version: number) {
  return apiSend(`${base(requestId)}/contract`, 'POST', { version }, StaffRequest);
}

export interface PaymentFields {
  amount: number;
  method: PaymentMethod;
  /** YYYY-MM-DD */
  paidAt: string;
  reference: string;
}

/** `idempotencyKey` is made once per submission, so a retry of the same submission records one payment. */
export async function sendPayment(requestId: string, body: PaymentFields & { version: number }, idempotencyKey: string) {
  const res = await apiRequest(`${base(requestId)}/payments`, { method: 'POST', json: body, headers: { 'Idempotency-Key': idempotencyKey } });
  return readData(res, PaymentAnswer);
}

export async function sendFinalFile(requestId: string, file: File, version: number) {
  const form = new FormData();
  // The version first: a streaming multipart reader sees the fields before the file.
  form.append('version', String(version));
  form.append('file', file, file.name);
  return readData(await apiRequest(`${base(requestId)}/final-file`, { method: 'POST', form }), StaffRequest);
}

/** `idempotencyKey` is made once per submission, so a retry after a lost answer makes one link. */
export async function sendNewTrackingLink(requestId: string, body: NewTrackingLinkBody, idempotencyKey: string) {
  const res = await apiRequest(`${base(requestId)}/tracking-links`, { method: 'POST', json: body, headers: { 'Idempotency-Key': idempotencyKey } });
  return readData(res, StaffTrackingLink);
}

export function sendTrackingLinkState(linkId: string, disabled: boolean) {
  return apiSend(`/staff/tracking-links/${encodeURIComponent(linkId)}`, 'PATCH', { disabled }, StaffTrackingLink);
}
