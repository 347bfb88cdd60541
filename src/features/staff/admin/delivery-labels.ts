import type { DeliveryItem } from '../../../../domain/push.ts';

/**
 * What the deliveries page calls each event (domain/notify-events.ts names them for the code). A kind this list
 * does not know yet shows as it is stored: an admin still sees which event it was, and the list needs no release
 * before the server adds an event.
 */
const eventLabels: Record<string, string> = {
  reply: 'Support reply',
  priced: 'Request priced',
  workStarted: 'Work started',
  reportReady: 'Report ready',
  rejected: 'Request rejected',
  payment: 'Payment received',
  refundDecided: 'Refund decided',
  notification: 'Notification',
  generalNotification: 'Notification',
  newLead: 'New lead (staff)',
  newRequest: 'New request to price (staff)',
  clientMessage: 'Client message (staff)',
  refundRequested: 'Refund requested (staff)',
  paymentDetailsProposed: 'Payment details proposed (admins)',
  paymentDetailsDecided: 'Payment details decided (admins)',
};

export function eventLabel(kind: string): string {
  return Object.hasOwn(eventLabels, kind) ? eventLabels[kind] : kind;
}

export const channelLabel: Record<DeliveryItem['channel'], string> = { push: 'Push', email: 'Email', fanout: 'Fan-out to everyone' };

export const stateLabel: Record<DeliveryItem['state'], string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  skipped: 'Skipped',
  failed: 'Failed',
  unknown: 'Unknown',
};

export const stateColor: Record<DeliveryItem['state'], string> = {
  queued: 'blue',
  sending: 'blue',
  sent: 'green',
  skipped: 'gray',
  failed: 'red',
  unknown: 'orange',
};

/** Only these can be sent again (the server answers 409 NOT_RETRYABLE for the rest). */
export const canSendAgain = (item: DeliveryItem) => item.state === 'failed' || item.state === 'unknown';

/**
 * An `unknown` delivery was handed to the push service or the mail server and the sender stopped before it recorded
 * the answer: it may have arrived. Sending it again is the admin's call, made knowing the person may get two.
 */
export const needsConfirmation = (item: DeliveryItem) => item.state === 'unknown';

export const UNKNOWN_RETRY_WARNING = 'This one may already have reached them: the server stopped before it could record the outcome. Send it again anyway?';

/** The page's filter (the list's `state`): what the admin acts on by default, each of the two alone, or everything that has finished. */
export const deliveryFilters = [
  { value: 'failed,unknown', label: 'Failed and unknown', empty: 'Every notification was delivered.' },
  { value: 'failed', label: 'Failed', empty: 'No delivery has failed.' },
  { value: 'unknown', label: 'Unknown', empty: 'No delivery is in doubt.' },
  { value: 'failed,unknown,sent,skipped', label: 'All finished (also sent and skipped)', empty: 'No notification has been sent yet.' },
] as const;
export type DeliveryFilter = (typeof deliveryFilters)[number]['value'];
