/** A time as the API sends it: ISO 8601 in UTC with milliseconds, as Date's toISOString writes it. */
const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * A timestamp read from the database as the API's ISO text. A value the database already wrote in that form (the
 * feed's requests, server/sync/requests.ts) is kept as it is: parsing a date costs about a microsecond and a page of
 * 5,000 requests has 20,000 of them (docs/decisions/017). Any other form is parsed as before.
 */
export function isoTime(value: string): string {
  return ISO_UTC_MS.test(value) ? value : new Date(value).toISOString();
}
