import dayjs from 'dayjs';
import { formatDate } from '../../../../domain/format.ts';

/** Bytes as staff read them: KB under a megabyte, MB above (1 KB = 1024 bytes, like the file managers). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** DD/MM/YYYY HH:mm in the viewer's time zone: the history needs the hour, everything else the day. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  const date = formatDate(value);
  return date ? `${date} ${dayjs(value).format('HH:mm')}` : '';
}

export function yesNo(value: boolean): string {
  return value ? 'Yes' : 'No';
}

/** First and last name when known, the email otherwise (leads often have no name yet). */
export function personName(p: { firstName: string | null; lastName: string | null; email: string }): string {
  return [p.firstName, p.lastName].filter(Boolean).join(' ') || p.email;
}

/** Today as the date input's value (YYYY-MM-DD), in the viewer's time zone. */
export function todayIso(): string {
  return dayjs().format('YYYY-MM-DD');
}
