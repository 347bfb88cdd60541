import { renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: { path: string; status: unknown; keepalive: boolean | undefined }[] = [];
let fail = false;
vi.mock('../../lib/api.ts', () => ({
  apiRequest: async (path: string, opts: { json: { status: unknown }; keepalive?: boolean }) => {
    calls.push({ path, status: opts.json.status, keepalive: opts.keepalive });
    if (fail) throw new Error('network down');
    return new Response('{"data":{}}', { status: 200 });
  },
}));
vi.mock('../../lib/firebase.ts', () => ({ getIdToken: async () => 'token' }));

const { STAYED_AFTER_BEFOREUNLOAD_MS, usePresence } = await import('./use-presence.ts');

function setVisibility(state: 'visible' | 'hidden') {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
  document.dispatchEvent(new Event('visibilitychange'));
}

beforeEach(() => {
  calls.length = 0;
  fail = false;
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
});
afterEach(() => {
  setVisibility('visible');
});

describe('usePresence', () => {
  it('marks ACTIVE on sign-in, IN_ACTIVE when hidden, ACTIVE when visible again, all with keepalive', async () => {
    const { unmount } = renderHook(() => usePresence('u1'));
    setVisibility('hidden');
    window.dispatchEvent(new Event('pagehide')); // hidden and pagehide together send one marker
    setVisibility('visible');
    await Promise.resolve();
    expect(calls.map((c) => c.status)).toEqual(['ACTIVE', 'IN_ACTIVE', 'ACTIVE']);
    expect(calls.every((c) => c.path === '/user/active-status' && c.keepalive === true)).toBe(true);
    unmount();
  });

  it('sends IN_ACTIVE when the page is left', () => {
    const { unmount } = renderHook(() => usePresence('u1'));
    window.dispatchEvent(new Event('pagehide'));
    expect(calls.map((c) => c.status)).toEqual(['ACTIVE', 'IN_ACTIVE']);
    unmount();
  });

  it('sends IN_ACTIVE on beforeunload, before the navigation, and once only when pagehide follows', () => {
    const { unmount } = renderHook(() => usePresence('u1'));
    window.dispatchEvent(new Event('beforeunload'));
    expect(calls.map((c) => c.status)).toEqual(['ACTIVE', 'IN_ACTIVE']);
    window.dispatchEvent(new Event('pagehide'));
    expect(calls.map((c) => c.status)).toEqual(['ACTIVE', 'IN_ACTIVE']);
    unmount();
  });

  it('says ACTIVE again when a beforeunload did not take the page away (a download, a cancelled navigation)', () => {
    vi.useFakeTimers();
    try {
      const { unmount } = renderHook(() => usePresence('u1'));
      window.dispatchEvent(new Event('beforeunload'));
      vi.advanceTimersByTime(STAYED_AFTER_BEFOREUNLOAD_MS - 1);
      expect(calls.map((c) => c.status)).toEqual(['ACTIVE', 'IN_ACTIVE']);
      vi.advanceTimersByTime(1);
      expect(calls.map((c) => c.status)).toEqual(['ACTIVE', 'IN_ACTIVE', 'ACTIVE']);
      unmount();
    } finally {
      vi.useRealTimers();
    }
  });

  it('only logs its errors', async () => {
    fail = true;
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { unmount } = renderHook(() => usePresence('u1'));
    await vi.waitFor(() => expect(log).toHaveBeenCalled());
    log.mockRestore();
    unmount();
  });

  it('sends nothing offline', () => {
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    const { unmount } = renderHook(() => usePresence('u1'));
    expect(calls).toEqual([]);
    unmount();
  });
});
