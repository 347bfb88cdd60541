import { toolSubmissionSchema } from '../../../../domain/tool-schemas.ts';
import type { ToolDefinition } from '../../../../domain/tools.ts';
import type { PurchaseBody } from '../../../lib/sync/commands/kind.ts';
import type { PurchaseValues } from '../../../lib/sync/commands/kinds.ts';
import { dateEntryError, formatDateEntry, parseDateEntry } from '../../../lib/date-entry.ts';
import type { PurchaseDraft } from './purchase.machine.ts';

const REQUIRED: ReadonlySet<string> = new Set(['text', 'number', 'select', 'bigtext']);

/**
 * The form's strings as the API wants them: numbers as numbers, dates (typed DD/MM/YYYY) as timestamps (ms) of
 * the day's local midnight. A date that is not a real day becomes NaN, which the schema refuses.
 */
export function toSubmission(tool: ToolDefinition, values: Record<string, string>): PurchaseValues {
  const out: PurchaseValues = {};
  for (const field of tool.formFields) {
    const raw = values[field.backendHeader]?.trim() ?? '';
    if (field.type === 'file' || raw === '') continue;
    if (field.type === 'number') out[field.backendHeader] = Number(raw);
    else if (field.type === 'date') out[field.backendHeader] = parseDateEntry(raw) ?? Number.NaN;
    else out[field.backendHeader] = raw;
  }
  return out;
}

/**
 * Field errors of a draft, keyed by backendHeader; empty when it can be sent. The required check
 * gives the friendly text; the catalogue's schema (the one the server applies) catches the rest.
 */
export function validateDraft(tool: ToolDefinition, draft: PurchaseDraft): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of tool.formFields) {
    if (REQUIRED.has(field.type) && (draft.values[field.backendHeader]?.trim() ?? '') === '') {
      errors[field.backendHeader] = `${field.header} is required`;
    } else if (field.type === 'date' && (draft.values[field.backendHeader]?.trim() ?? '') !== '' && parseDateEntry(draft.values[field.backendHeader]) === null) {
      errors[field.backendHeader] = dateEntryError(field.header);
    }
  }
  const parsed = toolSubmissionSchema(tool, 'json').safeParse(toSubmission(tool, draft.values));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (key && !errors[key]) errors[key] = issue.message;
    }
  }
  return errors;
}

/** A stored purchase as the form's draft: the outbox's Edit opens the tool's form prefilled with it. */
export function toDraft(tool: ToolDefinition, body: PurchaseBody): PurchaseDraft {
  const values: Record<string, string> = {};
  for (const field of tool.formFields) {
    const value = body.values[field.backendHeader];
    if (value === undefined || field.type === 'file') continue;
    values[field.backendHeader] = field.type === 'date' ? formatDateEntry(Number(value)) : String(value);
  }
  const files = Object.fromEntries(body.files.map((f) => [f.field, new File([f.blob], f.name, { type: f.type })]));
  return { values, files };
}

/** The form's draft as a purchase body: what queuePurchase sends, for the outbox's Edit. */
export function toPurchaseBody(tool: ToolDefinition, draft: PurchaseDraft): PurchaseBody {
  const values = Object.fromEntries(Object.entries(toSubmission(tool, draft.values)).filter((e): e is [string, string | number] => e[1] !== undefined));
  const files = Object.entries(draft.files)
    .filter((e): e is [string, File] => e[1] !== undefined)
    .map(([field, file]) => ({ field, name: file.name, type: file.type, blob: file }));
  return { values, files: tool.isFormData ? files : [] };
}
