/**
 * Dates typed as the app shows them, DD/MM/YYYY. A native date input follows the browser's locale (an en-US
 * Chromium shows mm/dd/yyyy whatever the page says), so date fields are text fields read and written here.
 * Times are the viewer's local time, as the native inputs gave them: a day is its local midnight.
 */

export const datePlaceholder = 'DD/MM/YYYY';
export const timePlaceholder = 'HH:MM';

// Day, month, four-digit year; "/", "." or "-" between them, as people type them.
const datePattern = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/;
const timePattern = /^(\d{1,2})[:.](\d{2})$/;

/** Years a real transaction can have; the API refuses timestamps from 2200 on. */
const MIN_YEAR = 1900;
const MAX_YEAR = 2199;

/** The local midnight of a typed DD/MM/YYYY day, or null when it is not a real day (31/02/2026, 2026-05-17). */
export function parseDateEntry(text: string): number | null {
  const match = datePattern.exec(text.trim());
  if (!match) return null;
  const [day, month, year] = match.slice(1).map(Number);
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  const date = new Date(year, month - 1, day);
  // Date rolls 31/02 over into March; a day that does not come back unchanged does not exist.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return null;
  return date.getTime();
}

/** Minutes after midnight of a typed 24-hour HH:MM, or null. */
export function parseTimeEntry(text: string): number | null {
  const match = timePattern.exec(text.trim());
  if (!match) return null;
  const [hours, minutes] = match.slice(1).map(Number);
  return hours < 24 && minutes < 60 ? hours * 60 + minutes : null;
}

/** A typed day and time as a timestamp (ms), or null when either is not valid. */
export function parseDateTimeEntry(date: string, time: string): number | null {
  const day = parseDateEntry(date);
  const minutes = parseTimeEntry(time);
  if (day === null || minutes === null) return null;
  const at = new Date(day);
  at.setHours(Math.floor(minutes / 60), minutes % 60, 0, 0);
  return at.getTime();
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A timestamp as the field shows it: DD/MM/YYYY in local time. */
export function formatDateEntry(timestamp: number): string {
  const d = new Date(timestamp);
  return `${pad(d.getDate())}/${pad(d.getMonth() + 1)}/${d.getFullYear()}`;
}

/** A timestamp's local time as the field shows it: HH:MM, 24-hour. */
export function formatTimeEntry(timestamp: number): string {
  const d = new Date(timestamp);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** YYYY-MM-DD (what the calendar's native input holds) for a typed day, or '' when the text is not a day. */
export function dateEntryToIso(text: string): string {
  const day = parseDateEntry(text);
  if (day === null) return '';
  const d = new Date(day);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The day a calendar picked (YYYY-MM-DD) as DD/MM/YYYY; '' for anything else. */
export function isoToDateEntry(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : '';
}

/** What a field says about a day it cannot read, in the label's words. */
export function dateEntryError(label: string): string {
  return `${label} must be a real date written ${datePlaceholder}, for example 17/05/2024`;
}

/** What a field says about a time it cannot read. */
export function timeEntryError(label: string): string {
  return `${label} must be a time written ${timePlaceholder} (24-hour), for example 14:30`;
}
