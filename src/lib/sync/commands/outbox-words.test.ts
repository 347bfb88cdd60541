import { describe, expect, it } from 'vitest';
import { isRawNetworkText, outboxErrorLine, outboxWords } from './outbox-words.ts';

describe('outboxErrorLine', () => {
  it('puts every browser text for "no answer" into words, never "failed"', () => {
    for (const raw of ['Failed to fetch', 'Load failed', 'NetworkError when attempting to fetch resource.', 'Network error', 'Connection lost']) {
      const line = outboxErrorLine({ status: 'pending', error: raw }, true);
      expect(line, raw).toBe(outboxWords.unreachable);
      expect(line).not.toMatch(/fail/i);
    }
    expect(outboxErrorLine({ status: 'sending', error: 'Failed to fetch' }, true)).toBe(outboxWords.unreachable);
  });

  it('offline, a waiting command says it waits for the network', () => {
    expect(outboxErrorLine({ status: 'pending', error: 'Failed to fetch' }, false)).toBe(outboxWords.waitingForNetwork);
    expect(outboxErrorLine({ status: 'pending', error: undefined }, false)).toBe(outboxWords.waitingForNetwork);
  });

  it("says the server is busy for a 5xx or 429 retry, and keeps a refusal's own reason", () => {
    expect(outboxErrorLine({ status: 'pending', error: 'Server busy (503)' }, true)).toBe(outboxWords.serverBusy);
    expect(outboxErrorLine({ status: 'failed', error: 'Only requests that are In Progress or Done can be refunded.' }, true)).toBe(
      'Only requests that are In Progress or Done can be refunded.',
    );
    expect(outboxErrorLine({ status: 'held', error: 'Please sign in again to send this.' }, false)).toBe('Please sign in again to send this.');
    expect(outboxErrorLine({ status: 'pending', error: undefined }, true)).toBeNull();
  });

  it('recognises only the raw texts', () => {
    expect(isRawNetworkText(' failed to fetch ')).toBe(true);
    expect(isRawNetworkText('Failed to fetch the weather because it rained')).toBe(false);
  });
});
