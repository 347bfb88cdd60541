import { describe, expect, it } from 'vitest';
import { toolSubmissionSchema } from './tool-schemas.ts';
import { findTool } from './tools.ts';

const trackMaster = toolSubmissionSchema(findTool('track-master')!, 'json');
const valid = { fraudType: 'crypto', fraudUrl: 'https://scam.example', communicationChannel: 'Telegram', notes: 'He wrote first.' };
const messages = (value: unknown) => trackMaster.safeParse(value).error?.issues.map((i) => i.message) ?? [];

describe('tool submission schemas', () => {
  it('tell a missing field from a field of the wrong type', () => {
    expect(messages({ ...valid, fraudUrl: undefined })).toEqual(['fraudUrl is required']);
    expect(messages({ ...valid, fraudUrl: 42 })).toEqual(['fraudUrl must be text']);
    expect(messages({ ...valid, fraudUrl: '   ' })).toEqual(['fraudUrl is required']);
  });

  it('refuse unknown select options, over-long bigtext and unknown fields', () => {
    expect(messages({ ...valid, fraudType: 'lottery' })[0]).toContain('fraudType must be one of');
    expect(messages({ ...valid, notes: 'x'.repeat(501) })).toEqual(['notes must be at most 500 characters']);
    expect(trackMaster.safeParse({ ...valid, extra: 1 }).success).toBe(false);
    expect(trackMaster.safeParse(valid).success).toBe(true);
  });

  it('read numbers and dates from multipart strings', () => {
    const bank = toolSubmissionSchema(findTool('bank-dispute')!, 'multipart');
    const parsed = bank.parse({ amountLost: '1500.5', transactionDate: '1714000000000', transactionsBankUsed: 'Bank', paymentMethod: 'wire' });
    expect(parsed).toMatchObject({ amountLost: 1500.5, transactionDate: 1714000000000 });
  });
});
