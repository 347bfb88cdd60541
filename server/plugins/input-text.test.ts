import { describe, expect, it } from 'vitest';
import { findUnstorable } from './input-text.ts';

describe('unstorable text', () => {
  it('names the path of the first bad text, keys included', () => {
    expect(findUnstorable({ initialForm: { name: 'ok', fraudUrl: 'bad\u0000' } })).toEqual({ path: 'initialForm.fraudUrl', reason: 'must not contain a NUL character' });
    expect(findUnstorable({ list: ['fine', '\ud800'] })?.path).toBe('list.1');
    expect(findUnstorable({ ['k\u0000']: 1 })?.path).toBe('(key)');
    expect(findUnstorable({ a: 1, b: [true, null, { c: 'fine' }] })).toBeNull();
    // A file's bytes are not read as text; its name is.
    expect(findUnstorable({ file: { filename: 'a.pdf', data: Buffer.from([0, 0xd8, 0]) } })).toBeNull();
    expect(findUnstorable({ file: { filename: 'a\u0000.pdf', data: Buffer.alloc(1) } })?.path).toBe('file.filename');
  });
});
