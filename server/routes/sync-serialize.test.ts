import { describe, expect, it } from 'vitest';
import { emptySyncPage } from '../../domain/sync.ts';
import { serializeSyncPage } from './sync.ts';

describe('serializeSyncPage', () => {
  it('still checks the envelope and every list but the requests', () => {
    const page = emptySyncPage('7');
    expect(() => serializeSyncPage({ data: { ...page, cursor: 'abc' } })).toThrow();
    expect(() => serializeSyncPage({ data: { ...page, deals: [{ id: 'd1' }] } })).toThrow();
    expect(JSON.parse(serializeSyncPage({ data: page }))).toEqual({ data: page });
  });
});
