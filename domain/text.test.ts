import { describe, expect, it } from 'vitest';
import { ContactBody } from './schemas.ts';
import { toolSubmissionSchema } from './tool-schemas.ts';
import { tools } from './tools.ts';
import { unstorableText } from './text.ts';

describe('the one text rule', () => {
  it('finds NUL and unpaired surrogates, and lets real pairs and ordinary text through', () => {
    expect(unstorableText('a\u0000b')).toContain('NUL');
    expect(unstorableText('\ud800')).toContain('unpaired surrogate');
    expect(unstorableText('x\udc00')).toContain('unpaired surrogate');
    expect(unstorableText('\ud83d\ude00 emoji, Ünïcode, 中文')).toBeNull();
  });

  it('is checked by the shared schemas, naming the field, so forms refuse it before sending', () => {
    const result = ContactBody.safeParse({ contactRequest: { subject: 'Help \ud800', message: 'ok' } });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.message)).toEqual(['subject must not contain invalid Unicode (an unpaired surrogate)']);
  });

  it('is checked by every text field of the tool catalogue', () => {
    let checked = 0;
    for (const tool of tools) {
      const schema = toolSubmissionSchema(tool, 'json');
      for (const field of tool.formFields.filter((f) => f.type === 'text' || f.type === 'bigtext')) {
        const result = schema.shape[field.backendHeader].safeParse('bad\u0000text');
        expect(result.success, `${tool.header} ${field.backendHeader}`).toBe(false);
        expect(result.error?.issues[0].message).toBe(`${field.backendHeader} must not contain a NUL character`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(5);
  });
});
