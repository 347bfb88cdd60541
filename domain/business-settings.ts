import { z } from 'zod';
import { requiredText, storable } from './text.ts';

/**
 * The business's own settings, edited by admins in the staff workspace and synced to every user
 * (docs/decisions/016-business-settings-and-how-to-pay.md): where clients pay (bank transfer details shown on the
 * How to pay panel and on the pro-forma invoice) and the official channels the "Was this really us?" check
 * compares a received message with. One row, id 'business'; no row yet means "not configured".
 */

export const BUSINESS_SETTINGS_ID = 'business';
/** Enough for a business's real addresses; a longer list would be a paste gone wrong. */
export const MAX_CHANNELS = 10;

const text = requiredText;

/** Optional text: an empty box is kept as '' so the form and the row have one shape. */
const optionalText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a text` })
    .trim()
    .max(max, `${name} must be at most ${max} characters`)
    .check(storable(name))
    .default('');

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
/** A host name in ASCII (punycode allowed, as xn--…): labels of letters, digits and inner hyphens, a letter TLD. */
const HOSTNAME = new RegExp(`^(?=.{4,253}$)(?:${LABEL}\\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$`);

const officialEmail = z
  .string({ error: 'each official email must be a text' })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: (issue) => `official email "${String(issue.input)}" is not a valid email address` }).max(254, 'an official email must be at most 254 characters'));

const officialDomain = z
  .string({ error: 'each official web domain must be a text' })
  .trim()
  .toLowerCase()
  .refine((v) => HOSTNAME.test(v), { error: (issue) => `official web domain "${String(issue.input)}" must be a domain such as portal.example.com (no https://, no path)` });

const officialPhone = z
  .string({ error: 'each official phone must be a text' })
  .trim()
  .refine((v) => /^\+?[0-9 ().-]+$/.test(v) && digitsOf(v).length >= 6 && digitsOf(v).length <= 15, {
    error: (issue) => `official phone "${String(issue.input)}" must be 6 to 15 digits, optionally with +, spaces, dots, dashes or brackets`,
  });

const channelList = <T extends z.ZodType<string>>(name: string, item: T) =>
  z
    .array(item, { error: `${name} must be a list` })
    .max(MAX_CHANNELS, `${name}: at most ${MAX_CHANNELS} entries`)
    .transform((list) => [...new Set(list)]);

/** What an admin edits: payment instructions and official channels, one flat object. */
export const BusinessSettingsFields = z.strictObject({
  accountHolder: text('accountHolder', 140),
  bankName: text('bankName', 140),
  /** IBAN or the local account number, as the client should type it. */
  accountNumber: text('accountNumber', 64),
  bic: optionalText('bic', 20),
  paymentNote: optionalText('paymentNote', 1000),
  officialEmails: channelList('officialEmails', officialEmail),
  officialDomains: channelList('officialDomains', officialDomain),
  officialPhones: channelList('officialPhones', officialPhone),
});
export type BusinessSettingsFields = z.infer<typeof BusinessSettingsFields>;

/** The row as the server sends it (staff GET/PUT and the sync feed). */
export const BusinessSettings = z.object({
  id: z.literal(BUSINESS_SETTINGS_ID),
  accountHolder: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
  bic: z.string(),
  paymentNote: z.string(),
  officialEmails: z.array(z.string()),
  officialDomains: z.array(z.string()),
  officialPhones: z.array(z.string()),
  version: z.number().int(),
  updatedAt: z.string(),
  /** When a second admin last approved a change of the payment details (ISO); null if never. Clients are warned for 14 days. */
  paymentDetailsChangedAt: z.string().nullable(),
});
export type BusinessSettings = z.infer<typeof BusinessSettings>;

/**
 * PUT /api/staff/business-settings. `version` is the row's version the admin edited (409 when it moved);
 * null when they filled the form before any settings existed (409 if someone saved first).
 */
export const BusinessSettingsBody = BusinessSettingsFields.extend({
  version: z.number({ error: 'version is required (null when there are no settings yet)' }).int().min(1, 'version must be a positive whole number').nullable(),
});
export type BusinessSettingsBody = z.infer<typeof BusinessSettingsBody>;

// ---- "Was this really us?" ----

export type ContactKind = 'email' | 'web' | 'phone';
export interface FoundContact {
  kind: ContactKind;
  /** As it will be shown: an email or host in lower case, a phone as written. */
  value: string;
  official: boolean;
}

export type RedFlagKind = 'gift-card' | 'messaging-app' | 'crypto-wallet' | 'recovery-fee' | 'urgency';
export interface RedFlag {
  kind: RedFlagKind;
  /** What was found in the text. */
  found: string;
  /** Why it matters, in plain words. */
  why: string;
}

export type CheckVerdict = 'official' | 'not-us' | 'nothing-to-check';
export interface CheckResult {
  verdict: CheckVerdict;
  headline: string;
  /** One or two sentences under the headline. */
  advice: string;
  contacts: FoundContact[];
  redFlags: RedFlag[];
}

export type OfficialChannels = Pick<BusinessSettingsFields, 'officialEmails' | 'officialDomains' | 'officialPhones'> & { accountNumber?: string };

export const verdictHeadline: Record<CheckVerdict, string> = {
  official: 'This matches our official channels',
  'not-us': 'This did not come from us',
  'nothing-to-check': 'We found no address or number to check',
};

/** Red flags we never do, whatever address a message shows: any of them makes it "not us". */
const NEVER: ReadonlySet<RedFlagKind> = new Set(['gift-card', 'messaging-app', 'crypto-wallet', 'recovery-fee']);

const FLAG_RULES: { kind: RedFlagKind; pattern: RegExp; why: string }[] = [
  {
    kind: 'gift-card',
    pattern: /\b(gift ?cards?|itunes cards?|steam cards?|google play cards?|amazon cards?|vouchers?)\b/giu,
    why: 'We never ask to be paid with gift cards or vouchers.',
  },
  {
    kind: 'messaging-app',
    pattern: /\b(whats ?app|telegram|signal app|viber|wechat)\b/giu,
    why: 'We never contact clients or take payments through WhatsApp, Telegram or other chat apps.',
  },
  {
    kind: 'crypto-wallet',
    // Bitcoin (legacy and bech32), Ethereum-style and TRON addresses: long, so ordinary words never match.
    pattern: /(?<![\p{L}\p{N}])(bc1[a-z0-9]{25,60}|[13][a-km-zA-HJ-NP-Z1-9]{25,34}|0x[a-fA-F0-9]{40}|T[1-9A-HJ-NP-Za-km-z]{33})(?![\p{L}\p{N}])/gu,
    why: 'We never ask for crypto to be sent to a wallet address.',
  },
  {
    kind: 'crypto-wallet',
    pattern: /\b((crypto|bitcoin|btc|usdt|eth(ereum)?) wallet|send (the )?(bitcoin|btc|usdt|crypto))\b/giu,
    why: 'We never ask for crypto to be sent to a wallet.',
  },
  {
    kind: 'recovery-fee',
    pattern: /\b((recovery|release|unlock(ing)?|withdrawal|processing|clearance) (fee|tax|charge|deposit)s?|fee to (release|recover|unlock))\b/giu,
    why: 'Fake "recovery" agents ask for a fee before they release money. Our invoices are only in this portal.',
  },
  {
    kind: 'urgency',
    pattern: /\b(urgent(ly)?|immediately|act now|right away|within (24|48|twenty-four) hours|final (notice|warning)|last chance|today only|or (you will )?lose)\b/giu,
    why: 'Pressure to act fast is a common trick. We never rush you.',
  },
];

/** Text that only looks like a domain: abbreviations and file names, never reported as a web address. */
const NOT_TLDS = new Set(['eg', 'ie', 'vs', 'etc', 'pdf', 'doc', 'docx', 'jpg', 'jpeg', 'png', 'txt', 'zip', 'xls', 'xlsx']);

const EMAIL = /(?<![\p{L}\p{N}._%+-])[\p{L}\p{N}._%+-]+@((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,})/gu;
const URL_WITH_SCHEME = /\bhttps?:\/\/[^\s<>"'()]+/giu;
const BARE_DOMAIN = /(?<![\p{L}\p{N}@.-])((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}][\p{L}\p{N}-]*[\p{L}\p{N}])(?![\p{L}\p{N}@-])/gu;
const PHONE = /(?<![\p{L}\p{N}+])\+?\d[\d ().-]{4,}\d(?![\p{L}\p{N}])/gu;

/** 25.11.2026, 2026-11-25: dates have phone-like digits but are not numbers to call. */
const DATE = /^\d{1,4}[./-]\d{1,2}[./-]\d{1,4}$/;

/** Digits of our own account number (a pasted copy of our payment details) are not a phone number. */
function partOfAccount(digits: string, channels: OfficialChannels): boolean {
  const account = digitsOf(channels.accountNumber ?? '');
  return account.length > 0 && account.includes(digits);
}

export function digitsOf(value: string): string {
  return value.replace(/\D/g, '');
}

/**
 * A host is official only when it is an official domain or a subdomain of one ("mail.portal.com" under
 * "portal.com"). Nothing else counts: "dem0-portal.com", "portal.com.evil.io" and punycode or non-Latin
 * lookalikes (which never equal an ASCII domain) are not ours. Trailing dots are dropped ("portal.com.").
 */
export function isOfficialHost(host: string, officialDomains: readonly string[]): boolean {
  const h = host.toLowerCase().replace(/\.+$/, '');
  return officialDomains.some((d) => {
    const domain = d.toLowerCase().replace(/\.+$/, '');
    return domain !== '' && (h === domain || h.endsWith(`.${domain}`));
  });
}

export function isOfficialEmail(email: string, channels: OfficialChannels): boolean {
  const e = email.toLowerCase();
  if (channels.officialEmails.some((o) => o.toLowerCase() === e)) return true;
  return isOfficialHost(e.slice(e.lastIndexOf('@') + 1), channels.officialDomains);
}

/**
 * Phones by their digits. A number written nationally ("020 7946 0000") matches the international one
 * ("+44 20 7946 0000") when, without its leading zero, it is the end of it and long enough (8+ digits)
 * not to match by chance.
 */
export function isOfficialPhone(phone: string, officialPhones: readonly string[]): boolean {
  const d = digitsOf(phone);
  return officialPhones.some((o) => {
    const od = digitsOf(o);
    if (od === d) return true;
    const [short, long] = d.length < od.length ? [d, od] : [od, d];
    const national = short.replace(/^0+/, '');
    return short.startsWith('0') && national.length >= 8 && long.endsWith(national);
  });
}

/** The host of an http(s) address (userinfo such as "portal.com@evil.io" is not the host); null if unreadable. */
function hostOf(url: string): string | null {
  try {
    return new URL(url.replace(/[.,;:!?]+$/, '')).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Every web link, email, bare domain and phone number in a text (in that order), each once. */
export function extractContacts(text: string, channels: OfficialChannels): FoundContact[] {
  const found: FoundContact[] = [];
  const seen = new Set<string>();
  const add = (kind: ContactKind, value: string, official: boolean) => {
    const key = `${kind}:${kind === 'phone' ? digitsOf(value) : value}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push({ kind, value, official });
  };
  let rest = text.normalize('NFC');
  // Addresses with a scheme first: 'https://portal.com@evil.io' is a link to evil.io, not an email.
  for (const m of rest.matchAll(URL_WITH_SCHEME)) {
    const host = hostOf(m[0]);
    if (host) add('web', host, isOfficialHost(host, channels.officialDomains));
  }
  rest = rest.replace(URL_WITH_SCHEME, ' ');
  for (const m of rest.matchAll(EMAIL)) {
    const email = m[0].toLowerCase().replace(/\.+$/, '');
    add('email', email, isOfficialEmail(email, channels));
  }
  rest = rest.replace(EMAIL, ' ');
  for (const m of rest.matchAll(BARE_DOMAIN)) {
    const host = m[1].toLowerCase();
    const tld = host.slice(host.lastIndexOf('.') + 1);
    if (NOT_TLDS.has(tld) || /^\d+$/.test(tld)) continue;
    add('web', toAsciiHost(host), isOfficialHost(toAsciiHost(host), channels.officialDomains));
  }
  rest = rest.replace(BARE_DOMAIN, ' ');
  for (const m of rest.matchAll(PHONE)) {
    const digits = digitsOf(m[0]);
    if (digits.length < 7 || digits.length > 15 || DATE.test(m[0].trim()) || partOfAccount(digits, channels)) continue;
    add('phone', m[0].trim(), isOfficialPhone(m[0], channels.officialPhones));
  }
  return found;
}

/** "dеmo.com" with a Cyrillic е is shown as the browser would resolve it (xn--…), so the lookalike is visible. */
function toAsciiHost(host: string): string {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return host;
  }
}

export function findRedFlags(text: string): RedFlag[] {
  const flags: RedFlag[] = [];
  for (const rule of FLAG_RULES) {
    for (const m of text.matchAll(rule.pattern)) {
      const found = m[0];
      if (!flags.some((f) => f.kind === rule.kind && f.found.toLowerCase() === found.toLowerCase())) flags.push({ kind: rule.kind, found, why: rule.why });
    }
  }
  return flags;
}

/**
 * "Was this really us?" for a pasted message or address. Official only when every address and number in it is
 * ours and it asks for nothing we never ask (gift cards, chat apps, crypto wallets, release fees); any contact
 * that is not ours makes it "not us", never "safe". Urgency alone is shown as a flag without changing the verdict.
 */
export function checkMessage(text: string, channels: OfficialChannels): CheckResult {
  const contacts = extractContacts(text, channels);
  const redFlags = findRedFlags(text);
  const never = redFlags.some((f) => NEVER.has(f.kind));
  if (contacts.length === 0) {
    return {
      verdict: 'nothing-to-check',
      headline: verdictHeadline['nothing-to-check'],
      advice: never
        ? 'But it asks for something we never ask for (see below). Treat it as not from us and do not pay or reply.'
        : 'Paste the sender’s email address, the web address or the phone number too, and check again.',
      contacts,
      redFlags,
    };
  }
  const notOurs = contacts.filter((c) => !c.official);
  if (notOurs.length > 0 || never) {
    return {
      verdict: 'not-us',
      headline: verdictHeadline['not-us'],
      advice:
        notOurs.length > 0
          ? 'It contains an address or number that is not one of ours. Do not pay, do not reply, and do not click its links. Tell us through Contact Support.'
          : 'It names our address but asks for something we never ask for. Do not pay or reply; tell us through Contact Support.',
      contacts,
      redFlags,
    };
  }
  return {
    verdict: 'official',
    headline: verdictHeadline.official,
    advice: 'Every address and number in it is one of ours. We still only take payments through invoices in this portal.',
    contacts,
    redFlags,
  };
}

// ---- Payment details: four eyes (docs/decisions/032-payment-details-four-eyes.md) ----

/** The fields that say where clients pay: a change to any of them is a proposal a second admin approves. */
export const PAYMENT_FIELDS = ['accountHolder', 'bankName', 'accountNumber', 'bic'] as const;
export type PaymentField = (typeof PAYMENT_FIELDS)[number];

export const PaymentDetails = z.object({ accountHolder: z.string(), bankName: z.string(), accountNumber: z.string(), bic: z.string() });
export type PaymentDetails = z.infer<typeof PaymentDetails>;

export function paymentDetailsOf(from: PaymentDetails): PaymentDetails {
  return { accountHolder: from.accountHolder, bankName: from.bankName, accountNumber: from.accountNumber, bic: from.bic };
}

export function samePaymentDetails(a: PaymentDetails, b: PaymentDetails): boolean {
  return PAYMENT_FIELDS.every((field) => a[field] === b[field]);
}

/** How long clients are warned after an approved change of the payment details. */
export const PAYMENT_CHANGE_WARNING_DAYS = 14;

/** The warning on How to pay and Stay safe; `date` as the app formats dates (DD/MM/YYYY). */
export const paymentDetailsChangedText = (date: string) => `Payment details changed on ${date} — check with us before paying`;

/**
 * When clients are to be warned: the approval time of the last change of the payment details, while it is less
 * than PAYMENT_CHANGE_WARNING_DAYS old; null otherwise (never changed, or long ago). A time in the future (a device
 * clock behind the server's) counts as recent.
 */
export function recentPaymentChange(settings: Pick<BusinessSettings, 'paymentDetailsChangedAt'> | null | undefined, now: number): string | null {
  const at = settings?.paymentDetailsChangedAt;
  if (!at) return null;
  const time = Date.parse(at);
  if (Number.isNaN(time)) return null;
  return now - time < PAYMENT_CHANGE_WARNING_DAYS * 24 * 3600 * 1000 ? at : null;
}

export const ProposalStatus = z.enum(['pending', 'approved', 'rejected', 'withdrawn', 'replaced']);
export type ProposalStatus = z.infer<typeof ProposalStatus>;

const Admin = z.object({ uid: z.string(), email: z.string() });

/** A proposed change of the payment details, as admins see it (never in a client answer or feed). */
export const PaymentDetailsProposal = z.object({
  id: z.string(),
  status: ProposalStatus,
  proposedBy: Admin,
  proposedAt: z.string(),
  /** The payment details when it was proposed. */
  before: PaymentDetails,
  after: PaymentDetails,
  decidedBy: Admin.nullable(),
  decidedAt: z.string().nullable(),
});
export type PaymentDetailsProposal = z.infer<typeof PaymentDetailsProposal>;

/**
 * The answer of every business-settings write (PUT and a proposal's approve, reject, withdraw): the settings as
 * clients get them, and the proposal the write made or decided (null when the save changed no payment detail).
 */
export const BusinessSettingsWrite = z.object({ settings: BusinessSettings, proposal: PaymentDetailsProposal.nullable() });
export type BusinessSettingsWrite = z.infer<typeof BusinessSettingsWrite>;

/** GET /api/staff/business-settings/proposal (admins): the pending proposal, if any, and how many admins there are. */
export const PaymentDetailsReview = z.object({ proposal: PaymentDetailsProposal.nullable(), admins: z.number().int() });
export type PaymentDetailsReview = z.infer<typeof PaymentDetailsReview>;

export const SINGLE_ADMIN_TEXT = 'Only one admin: a second admin must approve this change before clients see it. Add an admin in Team.';
export const PROPOSAL_SAVED_TEXT = 'The new payment details wait for a second admin’s approval. Clients keep seeing the current ones until then.';
