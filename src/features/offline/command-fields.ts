import type { OutboxCommand } from '../../lib/db.ts';

export interface EditableField {
  key: string;
  value: string | number | null;
}

/**
 * The fields a user may correct in a failed command: the flat values of its payload (the spec's
 * bodies wrap them under one key, e.g. { contactRequest: { subject, message } }).
 */
export function editableFields(command: OutboxCommand): EditableField[] {
  if (command.form) return Object.entries(command.form.fields).map(([key, value]) => ({ key, value }));
  const inner = unwrap(command.json);
  if (!inner) return [];
  return Object.entries(inner)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([key, value]) => ({ key, value: value as string | number }));
}

/** The command's payload with edited values, numbers kept as numbers. */
export function withEditedFields(command: OutboxCommand, edited: Record<string, string>): Pick<OutboxCommand, 'json' | 'form'> {
  if (command.form) return { form: { ...command.form, fields: { ...command.form.fields, ...edited } } };
  const json = command.json as Record<string, Record<string, unknown>>;
  const wrapper = Object.keys(json)[0];
  const inner = { ...json[wrapper] };
  for (const [key, value] of Object.entries(edited)) {
    inner[key] = typeof inner[key] === 'number' && value.trim() !== '' && !Number.isNaN(Number(value)) ? Number(value) : value;
  }
  return { json: { [wrapper]: inner } };
}

function unwrap(json: unknown): Record<string, unknown> | null {
  if (!json || typeof json !== 'object') return null;
  const values = Object.values(json as Record<string, unknown>);
  return values.length === 1 && values[0] && typeof values[0] === 'object' ? (values[0] as Record<string, unknown>) : null;
}
