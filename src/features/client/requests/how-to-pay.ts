import type { BusinessSettings } from '../../../../domain/business-settings.ts';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import type { Profile } from '../../../../domain/schemas.ts';
import { requestName, requestRef } from '../../../../domain/tools.ts';
import type { PortalDb, LocalRequest } from '../../../lib/db.ts';
import { displayName } from '../../../lib/replica.ts';
import { saveBlob } from '../../../lib/save-file.ts';
import { type PdfSection, sectionsPdf } from '../shared/pdf-document.ts';

/**
 * A request the client has to pay now: Awaiting Payment (Waiting for actions) with money left. A row still waiting
 * to be sent has no reference to quote yet. When staff record the payment that clears it (or move the status on),
 * the sync brings the new row and this turns false, so the button and the panel go away by themselves.
 */
export function needsPayment(request: Pick<LocalRequest, 'status' | 'leftToPay' | 'pending'>): boolean {
  return request.status === 'Waiting for actions' && !request.pending && request.leftToPay !== null && request.leftToPay > 0;
}

/** The payment details as label/value pairs, empty ones left out (a BIC or a note is optional). */
export function paymentLines(settings: BusinessSettings): [string, string][] {
  const lines: [string, string][] = [
    ['Account holder', settings.accountHolder],
    ['Bank', settings.bankName],
    ['IBAN / account number', settings.accountNumber],
    ['BIC / SWIFT', settings.bic],
  ];
  return lines.filter(([, value]) => value.trim() !== '');
}

/** The pro-forma invoice's content: who is billed, for what, how much is left, and how to pay it with the reference. */
export function proFormaSections(request: LocalRequest, settings: BusinessSettings, profile: Profile | null | undefined, now: Date): PdfSection[] {
  const ref = requestRef(request) ?? '';
  return [
    {
      heading: 'Pro-forma invoice',
      lines: [
        `Reference: ${ref}`,
        `Date: ${formatDate(now.getTime())}`,
        `Billed to: ${displayName(profile)}${profile?.email ? ` (${profile.email})` : ''}`,
        'This is not a receipt. It shows what is left to pay on your request.',
      ],
    },
    {
      heading: 'Request',
      lines: [
        requestName(request),
        `Ordered on: ${formatDate(request.Created_Time)}`,
        `Total: ${formatMoney(request.totalAmount)}`,
        `Paid so far: ${formatMoney(request.paid)}`,
        `Amount left to pay: ${formatMoney(request.leftToPay)}`,
      ],
    },
    {
      heading: 'How to pay',
      lines: [
        'Bank transfer to:',
        ...paymentLines(settings).map(([label, value]) => `${label}: ${value}`),
        `Payment reference to quote: ${ref}`,
        ...(settings.paymentNote ? [settings.paymentNote] : []),
      ],
    },
    {
      heading: 'Stay safe',
      lines: [
        'We only take payments through invoices in the portal. We never ask for gift cards, crypto sent to a personal wallet, or payments through WhatsApp or Telegram.',
        ...(settings.officialEmails.length ? [`Our email addresses: ${settings.officialEmails.join(', ')}`] : []),
        ...(settings.officialDomains.length ? [`Our web addresses: ${settings.officialDomains.join(', ')}`] : []),
        ...(settings.officialPhones.length ? [`Our phone numbers: ${settings.officialPhones.join(', ')}`] : []),
      ],
    },
  ];
}

/** Builds the pro-forma on this device from the replica (works offline) and hands it to the browser. */
export async function downloadProForma(db: PortalDb, request: LocalRequest, settings: BusinessSettings): Promise<void> {
  const profile = await db.profile.get(db.uid);
  const ref = requestRef(request) ?? 'request';
  const bytes = await sectionsPdf(`Pro-forma invoice ${ref}`, proFormaSections(request, settings, profile, new Date()));
  saveBlob(new Blob([bytes as BlobPart], { type: 'application/pdf' }), `pro-forma-${ref}.pdf`);
}
