import { describe, expect, it } from 'vitest';
import { fieldErrors, toInitialForm } from './initial-form-page.tsx';

const filled = { moneyLost: '2500.5', lastFundsTransfer: '2025-03-14T10:30', fraudType: 'JOB', fraudUrl: ' https://scam.example.com ' };

describe('initial form values', () => {
  it('converts money to a number and the date to a timestamp, with the display name as name', () => {
    const payload = toInitialForm(filled, 'Leo Lead') as Record<string, unknown>;
    expect(payload.moneyLost).toBe(2500.5);
    expect(payload.lastFundsTransfer).toBe(new Date('2025-03-14T10:30').getTime());
    expect(payload.name).toBe('Leo Lead');
    expect(fieldErrors(payload)).toEqual({});
  });

  it('names the missing fields by their labels', () => {
    const errors = fieldErrors(toInitialForm({ moneyLost: '', lastFundsTransfer: '', fraudType: '', fraudUrl: '  ' }, 'Leo'));
    expect(errors).toEqual({
      moneyLost: 'Money lost must be a number',
      lastFundsTransfer: 'Date and time of last transfer is required',
      fraudType: 'Fraud type is required',
      fraudUrl: 'Fraud URL is required',
    });
  });

  it('refuses a negative amount', () => {
    expect(fieldErrors(toInitialForm({ ...filled, moneyLost: '-1' }, 'Leo')).moneyLost).toBe('Money lost cannot be negative');
  });
});
