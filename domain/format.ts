import dayjs from 'dayjs';
import { type Cents } from './money.ts';
import { texts } from './texts.ts';

/** DD/MM/YYYY, the one date format the spec uses. Accepts ISO strings, epoch ms or Dates. */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const d = dayjs(value);
  return d.isValid() ? d.format('DD/MM/YYYY') : '';
}

/** DD/MM/YYYY HH:mm in the viewer's time zone: where the hour matters (history, visits, replies). */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = formatDate(value);
  return date ? `${date} ${dayjs(value).format('HH:mm')}` : '';
}

// One formatter for every amount: toLocaleString with options builds a new one per call, which shows in the
// profile of a dashboard's first render.
const twoDecimals = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

const wholeDollars = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/**
 * Dollars with two decimals; a total not set yet reads "Awaiting definition". For dollar numbers as the wire and
 * the replica carry them, and figures a client typed (an amount lost); the portal's own amounts are cents (formatCents).
 */
export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return texts.awaitingDefinition;
  const sign = value < 0 ? '-' : '';
  return `${sign}$${twoDecimals.format(Math.abs(value))}`;
}

/** Cents as dollars with two decimals, "$1,234,567.89", from the integer's digits; null reads "Awaiting definition". */
export function formatCents(value: Cents | null | undefined): string {
  if (value === null || value === undefined) return texts.awaitingDefinition;
  const sign = value < 0 ? '-' : '';
  const abs = Math.abs(value);
  const part = abs % 100;
  return `${sign}$${wholeDollars.format((abs - part) / 100)}.${String(part).padStart(2, '0')}`;
}

/** "crypto" -> "Crypto": select options are shown capitalised. */
export function capitalise(word: string): string {
  return word.length === 0 ? word : word[0].toUpperCase() + word.slice(1).toLowerCase();
}
