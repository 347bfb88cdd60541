import { describe, expect, it } from 'vitest';
import { BusinessSettingsBody, PAYMENT_CHANGE_WARNING_DAYS, checkMessage, recentPaymentChange, samePaymentDetails, extractContacts, findRedFlags, isOfficialHost, isOfficialPhone, type OfficialChannels } from './business-settings.ts';

const channels: OfficialChannels = {
  officialEmails: ['help@support-desk.net'],
  officialDomains: ['demo-portal.com'],
  officialPhones: ['+44 20 7946 0000'],
  accountNumber: 'GB29 NWBK 6016 1331 9268 19',
};

describe('isOfficialHost', () => {
  it('accepts the domain and its subdomains', () => {
    expect(isOfficialHost('demo-portal.com', channels.officialDomains)).toBe(true);
    expect(isOfficialHost('mail.demo-portal.com', channels.officialDomains)).toBe(true);
    expect(isOfficialHost('DEMO-PORTAL.COM.', channels.officialDomains)).toBe(true);
  });
  it('refuses lookalikes', () => {
    for (const host of ['dem0-portal.com', 'demo-portal.com.evil.io', 'evildemo-portal.com', 'demo-portal.co', 'xn--dmo-portal-7ib.com', 'portal.com']) {
      expect(isOfficialHost(host, channels.officialDomains), host).toBe(false);
    }
  });
});

describe('isOfficialPhone', () => {
  it('compares digits, national or international', () => {
    expect(isOfficialPhone('+44 (20) 7946-0000', channels.officialPhones)).toBe(true);
    expect(isOfficialPhone('020 7946 0000', channels.officialPhones)).toBe(true);
    expect(isOfficialPhone('+44 20 7946 0001', channels.officialPhones)).toBe(false);
    expect(isOfficialPhone('0 0000', channels.officialPhones)).toBe(false);
  });
});

describe('extractContacts', () => {
  it('finds emails, web addresses and phones, each once', () => {
    const found = extractContacts(
      'Write to Agent@Recovery-Team.io or help@support-desk.net, see https://demo-portal.com/login and www.funds-back.org. Call +1 (555) 010-9999 or +1 555 010 9999.',
      channels,
    );
    expect(found).toEqual([
      { kind: 'web', value: 'demo-portal.com', official: true },
      { kind: 'email', value: 'agent@recovery-team.io', official: false },
      { kind: 'email', value: 'help@support-desk.net', official: true },
      { kind: 'web', value: 'www.funds-back.org', official: false },
      { kind: 'phone', value: '+1 (555) 010-9999', official: false },
    ]);
  });
  it('reads the real host of an address with userinfo, and shows a non-Latin lookalike as punycode', () => {
    expect(extractContacts('https://demo-portal.com@evil.io/pay', channels)).toEqual([{ kind: 'web', value: 'evil.io', official: false }]);
    const [cyrillic] = extractContacts('Log in at dеmo-portal.com now', channels);
    expect(cyrillic.official).toBe(false);
    expect(cyrillic.value.startsWith('xn--')).toBe(true);
  });
  it('leaves out dates, amounts, abbreviations, file names and our own account number', () => {
    expect(extractContacts('Pay $1,200.00 by 25.11.2026, e.g. see invoice.pdf. IBAN GB29 NWBK 6016 1331 9268 19', channels)).toEqual([]);
  });
});

describe('findRedFlags', () => {
  it('names gift cards, chat apps, wallets, release fees and urgency', () => {
    const kinds = findRedFlags(
      'URGENT: pay the recovery fee in Steam cards or to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq, message us on WhatsApp',
    ).map((f) => f.kind);
    expect(new Set(kinds)).toEqual(new Set(['gift-card', 'messaging-app', 'crypto-wallet', 'recovery-fee', 'urgency']));
  });
  it('finds none in a plain message', () => {
    expect(findRedFlags('Your invoice for TM-0042 is in the portal.')).toEqual([]);
  });
});

describe('checkMessage', () => {
  it('official when every contact is ours', () => {
    const r = checkMessage('From: help@support-desk.net, see https://app.demo-portal.com', channels);
    expect(r.verdict).toBe('official');
    expect(r.headline).toBe('This matches our official channels');
  });
  it('not us for a lookalike address', () => {
    const r = checkMessage('support@dem0-portal.com', channels);
    expect(r.verdict).toBe('not-us');
    expect(r.headline).toBe('This did not come from us');
  });
  it('never official when one contact is not ours, even next to ours', () => {
    expect(checkMessage('help@support-desk.net or call +1 555 010 9999', channels).verdict).toBe('not-us');
  });
  it('not us when it names our address but asks for gift cards', () => {
    expect(checkMessage('help@support-desk.net: pay with gift cards', channels).verdict).toBe('not-us');
  });
  it('urgency alone does not change an official verdict but is shown', () => {
    const r = checkMessage('Please reply immediately to help@support-desk.net', channels);
    expect(r.verdict).toBe('official');
    expect(r.redFlags.map((f) => f.kind)).toEqual(['urgency']);
  });
  it('nothing to check without contacts', () => {
    const r = checkMessage('Hello, we can get your money back.', channels);
    expect(r.verdict).toBe('nothing-to-check');
    expect(r.headline).toBe('We found no address or number to check');
  });
  it('with no official channels configured nothing is official', () => {
    expect(checkMessage('help@support-desk.net', { officialEmails: [], officialDomains: [], officialPhones: [] }).verdict).toBe('not-us');
  });
});

describe('BusinessSettingsBody', () => {
  const valid = {
    accountHolder: 'Demo Recovery Ltd',
    bankName: 'Example Bank',
    accountNumber: 'GB29 NWBK 6016 1331 9268 19',
    officialEmails: ['Help@Demo-Portal.com'],
    officialDomains: ['demo-portal.com'],
    officialPhones: ['+44 20 7946 0000'],
    version: null,
  };
  it('accepts and normalises a full body', () => {
    const body = BusinessSettingsBody.parse(valid);
    expect(body.officialEmails).toEqual(['help@demo-portal.com']);
    expect(body.bic).toBe('');
  });
  it('refuses with a message naming the field', () => {
    const r = BusinessSettingsBody.safeParse({ ...valid, officialDomains: ['https://demo-portal.com/'] });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toMatch(/official web domain "https:\/\/demo-portal.com\/" must be a domain/);
    expect(BusinessSettingsBody.safeParse({ ...valid, accountHolder: ' ' }).error?.issues[0].message).toBe('accountHolder is required');
    expect(BusinessSettingsBody.safeParse({ ...valid, officialPhones: ['call me'] }).success).toBe(false);
    expect(BusinessSettingsBody.safeParse({ ...valid, officialEmails: Array.from({ length: 11 }, (_, i) => `a${i}@x.com`) }).success).toBe(false);
    expect(BusinessSettingsBody.safeParse({ ...valid, extra: 1 }).success).toBe(false);
  });
});

describe('payment details four eyes', () => {
  const day = 24 * 3600 * 1000;
  const now = Date.parse('2026-11-28T12:00:00Z');
  it('warns clients for 14 days after an approved change, never before one', () => {
    expect(recentPaymentChange(null, now)).toBeNull();
    expect(recentPaymentChange({ paymentDetailsChangedAt: null }, now)).toBeNull();
    const recent = new Date(now - 13 * day).toISOString();
    expect(recentPaymentChange({ paymentDetailsChangedAt: recent }, now)).toBe(recent);
    expect(recentPaymentChange({ paymentDetailsChangedAt: new Date(now - PAYMENT_CHANGE_WARNING_DAYS * day).toISOString() }, now)).toBeNull();
    expect(recentPaymentChange({ paymentDetailsChangedAt: new Date(now + 60_000).toISOString() }, now)).not.toBeNull();
  });
  it('compares only where clients pay: holder, bank, account number and BIC', () => {
    const a = { accountHolder: 'A Ltd', bankName: 'Bank', accountNumber: 'GB1', bic: '' };
    expect(samePaymentDetails(a, { ...a })).toBe(true);
    for (const field of ['accountHolder', 'bankName', 'accountNumber', 'bic'] as const) expect(samePaymentDetails(a, { ...a, [field]: 'other' })).toBe(false);
  });
});
