import dayjs from 'dayjs';

/** Bytes as staff read them: KB under a megabyte, MB above (1 KB = 1024 bytes, like the file managers). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
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
