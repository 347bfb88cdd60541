import { describe, expect, it } from 'vitest';
import { readQueueSearch } from './queue-tabs.ts';

describe('readQueueSearch', () => {
  it('keeps a listed tab and a trimmed search', () => {
    expect(readQueueSearch({ tab: 'refunds', q: '  ada  ' })).toEqual({ tab: 'refunds', q: 'ada' });
  });

  it('leaves out an unknown tab, a non-string and an over-long search', () => {
    expect(readQueueSearch({ tab: 'admin', q: 42 })).toEqual({ tab: undefined, q: undefined });
    expect(readQueueSearch({ tab: ['pending'], q: 'x'.repeat(201) })).toEqual({ tab: undefined, q: undefined });
    expect(readQueueSearch({ q: ` ${'x'.repeat(200)} ` }).q).toHaveLength(200);
  });

  it('gives nothing for an empty URL', () => {
    expect(readQueueSearch({})).toEqual({ tab: undefined, q: undefined });
  });
});
