import { Money } from '../../../../domain/staff.ts';

/**
 * Reads a dollar amount as staff type it ("1,250.50", "$300") and checks it with the same rule the
 * server applies, so the message appears under the field before anything is sent.
 */
export function parseMoney(text: string, name: string): { ok: true; value: number } | { ok: false; error: string } {
  const cleaned = text.replace(/[$,\s]/g, '');
  if (!cleaned) return { ok: false, error: `${name} is required` };
  const value = Number(cleaned);
  if (!Number.isFinite(value)) return { ok: false, error: `${name} must be a number` };
  const checked = Money(name).safeParse(value);
  return checked.success ? { ok: true, value: checked.data } : { ok: false, error: checked.error.issues[0]?.message ?? `${name} is not valid` };
}
