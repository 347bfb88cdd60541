import { changeLine } from './field-formats.ts';

/**
 * What another person changed between the version we acted on and the current one, as readable lines
 * ("Status: Pending → Awaiting Payment"), limited to the fields given, in their order.
 */
export function diffRecords<R extends object>(before: R, after: R, fields: readonly (keyof R & string)[]): string[] {
  return fields
    .filter((field) => JSON.stringify(before[field] ?? null) !== JSON.stringify(after[field] ?? null))
    .map((field) => changeLine(field, before[field], after[field]));
}
