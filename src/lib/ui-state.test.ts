import { act, renderHook } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The store is module state; a fresh module per test keeps tests independent of their order.
let ui: typeof import('./ui-state.ts');

beforeEach(async () => {
  vi.resetModules();
  ui = await import('./ui-state.ts');
});

describe('ui-state', () => {
  it('starts with loading and isMobile false and no messages', () => {
    expect(ui.getUiState()).toEqual({ loading: false, loadingCoverage: 'full', isMobile: false, messages: [], newRequestAt: null });
  });

  it('sets loading with full coverage unless told otherwise', () => {
    ui.setLoading(true);
    expect(ui.getUiState()).toMatchObject({ loading: true, loadingCoverage: 'full' });
    ui.setLoading(true, 'half');
    expect(ui.getUiState()).toMatchObject({ loading: true, loadingCoverage: 'half' });
    ui.setLoading(false);
    expect(ui.getUiState().loading).toBe(false);
  });

  it('queues messages oldest first with success as the default severity', () => {
    const first = ui.showMessage('Refund Request Sent.');
    const second = ui.showMessage('Something went wrong.', 'error', 5000);
    expect(first).not.toBe(second);
    expect(ui.getUiState().messages).toEqual([
      { key: first, severity: 'success', message: 'Refund Request Sent.' },
      { key: second, severity: 'error', message: 'Something went wrong.', duration: 5000 },
    ]);
  });

  it('removes only the message with the given key', () => {
    const first = ui.showMessage('one');
    const second = ui.showMessage('two', 'info');
    ui.removeMessage(first);
    expect(ui.getUiState().messages.map((m) => m.key)).toEqual([second]);
    const before = ui.getUiState();
    ui.removeMessage('no-such-key');
    expect(ui.getUiState()).toBe(before);
  });

  it('re-renders hook users on change and not on a no-op update', () => {
    let renders = 0;
    const { result } = renderHook(() => {
      renders += 1;
      return { isMobile: ui.useIsMobile(), messages: ui.useMessages(), loading: ui.useLoading() };
    });
    expect(result.current.isMobile).toBe(false);
    expect(result.current.loading).toEqual({ loading: false, coverage: 'full' });

    act(() => ui.setViewport(true));
    expect(result.current.isMobile).toBe(true);

    const rendersAfterViewport = renders;
    act(() => ui.setViewport(true));
    expect(renders).toBe(rendersAfterViewport);

    act(() => {
      ui.showMessage('Messgae sent successfully');
    });
    expect(result.current.messages).toHaveLength(1);
    expect(result.current.messages[0]?.message).toBe('Messgae sent successfully');

    act(() => ui.setLoading(true, 'half'));
    expect(result.current.loading).toEqual({ loading: true, coverage: 'half' });
  });
});
