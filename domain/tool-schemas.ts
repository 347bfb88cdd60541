import { z } from 'zod';
import { storable } from './text.ts';
import { BIGTEXT_MAX, type ToolDefinition, type ToolField } from './tools.ts';

export const TEXT_MAX = 300;
export const NUMBER_MAX = 1_000_000_000_000;

function fieldSchema(field: ToolField, source: 'json' | 'multipart'): z.ZodType | null {
  const required = `${field.backendHeader} is required`;
  // A missing value and a value of the wrong type are different mistakes; say which.
  const textError = (issue: { input?: unknown }) => (issue.input === undefined || issue.input === null ? required : `${field.backendHeader} must be text`);
  switch (field.type) {
    case 'text':
      return z.string({ error: textError }).trim().min(1, required).max(TEXT_MAX, `${field.backendHeader} must be at most ${TEXT_MAX} characters`).check(storable(field.backendHeader));
    case 'bigtext':
      return z.string({ error: textError }).trim().min(1, required).max(BIGTEXT_MAX, `${field.backendHeader} must be at most ${BIGTEXT_MAX} characters`).check(storable(field.backendHeader));
    case 'select':
      return z.enum(field.options as [string, ...string[]], {
        error: `${field.backendHeader} must be one of: ${(field.options ?? []).join(', ')}`,
      });
    case 'number': {
      const num = z
        .number({ error: `${field.backendHeader} must be a number` })
        .finite(`${field.backendHeader} must be a number`)
        .min(0, `${field.backendHeader} cannot be negative`)
        .max(NUMBER_MAX, `${field.backendHeader} is too large`);
      // Multipart bodies carry every value as a string; JSON bodies must send real numbers.
      return source === 'multipart'
        ? z.preprocess((v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v), num)
        : num;
    }
    case 'date': {
      const ts = z
        .number({ error: `${field.backendHeader} must be a timestamp` })
        .int(`${field.backendHeader} must be a timestamp`)
        .min(0, `${field.backendHeader} must be a timestamp`)
        .max(Date.UTC(2200, 0, 1), `${field.backendHeader} must be a timestamp`);
      const maybe = source === 'multipart'
        ? z.preprocess((v) => (v === '' || v === undefined ? undefined : typeof v === 'string' ? Number(v) : v), ts.optional())
        : ts.optional();
      return maybe;
    }
    case 'file':
      return null; // files travel as multipart parts and are checked by the storage plugin
  }
}

/** The zod schema of one tool's submission, derived from its catalogue entry. */
export function toolSubmissionSchema(tool: ToolDefinition, source: 'json' | 'multipart' = tool.isFormData ? 'multipart' : 'json') {
  const shape: Record<string, z.ZodType> = {};
  for (const field of tool.formFields) {
    const schema = fieldSchema(field, source);
    if (schema) shape[field.backendHeader] = schema;
  }
  return z.strictObject(shape);
}

export function fileFields(tool: ToolDefinition): ToolField[] {
  return tool.formFields.filter((f) => f.type === 'file');
}
