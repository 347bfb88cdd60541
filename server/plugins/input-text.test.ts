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

describe('unstorable text in a deeply nested value', () => {
  /** A value nested `levels` deep, `{ a: [{ a: [ … leaf ] }] }`, built without recursion. */
  function nested(levels: number, leaf: unknown): unknown {
    let value = leaf;
    for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { a: value };
    return value;
  }

  it('walks 100,000 levels without overflowing the stack, and names the path of a bad text at the bottom', () => {
    expect(findUnstorable(nested(100_000, 'fine'))).toBeNull();
    const found = findUnstorable(nested(100_000, 'bad\u0000'));
    expect(found?.reason).toBe('must not contain a NUL character');
    expect(found?.path.split('.')).toHaveLength(100_000);
    expect(found?.path.startsWith('a.0.a.0.')).toBe(true);
  });

  it('reports the first bad text in document order, keys before their values', () => {
    expect(findUnstorable({ a: [{ b: '\ud800' }], c: 'x\u0000' })?.path).toBe('a.0.b');
    expect(findUnstorable({ a: { ['k\u0000']: 'x\u0000' } })?.path).toBe('a.(key)');
  });
});
