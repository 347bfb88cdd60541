import dayjs from 'dayjs';
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

/** Dollars with two decimals; a total not set yet reads "Awaiting definition". */
export function formatMoney(value: number | null | undefined): string {
  if (value === null || value === undefined || Number.isNaN(value)) return texts.awaitingDefinition;
  const sign = value < 0 ? '-' : '';
  return `${sign}$${twoDecimals.format(Math.abs(value))}`;
}

/** "crypto" -> "Crypto": select options are shown capitalised. */
export function capitalise(word: string): string {
  return word.length === 0 ? word : word[0].toUpperCase() + word.slice(1).toLowerCase();
}
