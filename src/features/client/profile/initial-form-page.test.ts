import { describe, expect, it } from 'vitest';
import { fieldErrors, formErrors, toFormValues, toInitialForm } from './initial-form-page.tsx';

const filled = { moneyLost: '2500.5', lastFundsTransfer: '14/03/2025', lastTransferTime: '10:30', fraudType: 'JOB', fraudUrl: ' https://scam.example.com ' };

describe('initial form values', () => {
  it('converts money to a number and the DD/MM/YYYY day and HH:MM time to a timestamp, with the display name as name', () => {
    const payload = toInitialForm(filled, 'Leo Lead') as Record<string, unknown>;
    expect(payload.moneyLost).toBe(2500.5);
    expect(payload.lastFundsTransfer).toBe(new Date(2025, 2, 14, 10, 30).getTime());
    expect(payload.name).toBe('Leo Lead');
    expect(formErrors(filled, 'Leo Lead')).toEqual({});
  });

  it('names the missing fields by their labels', () => {
    const errors = formErrors({ moneyLost: '', lastFundsTransfer: '', lastTransferTime: '', fraudType: '', fraudUrl: '  ' }, 'Leo');
    expect(errors).toEqual({
      moneyLost: 'Money lost must be a number',
      lastFundsTransfer: 'Date and time of last transfer is required',
      fraudType: 'Fraud type is required',
      fraudUrl: 'Fraud URL is required',
    });
  });

  it('says which part of the date and time is missing or cannot be read', () => {
    const error = (lastFundsTransfer: string, lastTransferTime: string) => formErrors({ ...filled, lastFundsTransfer, lastTransferTime }, 'Leo').lastFundsTransfer;
    expect(error('', '10:30')).toBe('Date of last transfer is required');
    expect(error('31/02/2026', '10:30')).toBe('Date of last transfer must be a real date written DD/MM/YYYY, for example 17/05/2024');
    expect(error('03/14/2025', '10:30')).toBe('Date of last transfer must be a real date written DD/MM/YYYY, for example 17/05/2024');
    expect(error('14/03/2025', '')).toBe('Time of last transfer is required');
    expect(error('14/03/2025', '25:00')).toBe('Time of last transfer must be a time written HH:MM (24-hour), for example 14:30');
  });

  it('refuses a negative amount', () => {
    expect(fieldErrors(toInitialForm({ ...filled, moneyLost: '-1' }, 'Leo')).moneyLost).toBe('Money lost cannot be negative');
  });

  it('prefills an edited form in the same formats', () => {
    const values = toFormValues({ moneyLost: 10, lastFundsTransfer: new Date(2025, 0, 2, 8, 5).getTime(), fraudType: 'CRYPTO', fraudUrl: 'https://x.example', name: 'A' });
    expect(values).toMatchObject({ lastFundsTransfer: '02/01/2025', lastTransferTime: '08:05' });
    expect((toInitialForm(values, 'A') as { lastFundsTransfer: number }).lastFundsTransfer).toBe(new Date(2025, 0, 2, 8, 5).getTime());
  });
});
