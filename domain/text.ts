import { z } from 'zod';

/** A UTF-16 half of a pair without its other half: JSON can carry it ("\ud800"), PostgreSQL cannot store it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The one rule for text the app stores: why it cannot be stored, or null. PostgreSQL keeps neither a
 * NUL character nor an unpaired surrogate. Every string field of the schemas and the tool catalogue
 * checks it (`storable`); the server also applies it to every input before any schema
 * (server/plugins/input-text.ts), so a field outside them is covered too.
 */
export function unstorableText(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character';
  if (LONE_SURROGATE.test(text)) return 'must not contain invalid Unicode (an unpaired surrogate)';
  return null;
}

/** The rule as a zod string check naming the field: `z.string().check(storable('subject'))`. */
export const storable = (name: string) =>
  z.refine<string>((v) => unstorableText(v) === null, { error: (issue) => `${name} ${unstorableText(issue.input as string)}` });

/** A required, trimmed, storable text of at most `max` characters, each rule's message naming the field. */
export const requiredText = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    .min(1, `${name} is required`)
    .max(max, `${name} must be at most ${max} characters`)
    .check(storable(name));
