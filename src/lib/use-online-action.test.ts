import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../domain/texts.ts';
import { NetworkError } from './api-errors.ts';
import { getUiState, removeMessage } from './ui-state.ts';
import { useOnlineAction } from './use-online-action.ts';

afterEach(() => {
  for (const m of getUiState().messages) removeMessage(m.key);
  vi.restoreAllMocks();
});

describe('useOnlineAction', () => {
  it('offline, sends nothing and says it needs a connection', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const send = vi.fn(async () => 'done');
    const { result } = renderHook(() => useOnlineAction());
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.run(send);
    });
    expect(send).not.toHaveBeenCalled();
    expect(outcome).toMatchObject({ ok: false, offline: true });
    expect(getUiState().messages.map((m) => m.message)).toEqual([texts.needsConnection]);
  });

  it('a screen that shows the text inline gets it instead of the message bar', async () => {
    const inline = vi.fn();
    const { result } = renderHook(() => useOnlineAction(inline));
    await act(async () => {
      await result.current.run(async () => {
        throw new NetworkError('cut');
      });
    });
    expect(inline).toHaveBeenCalledOnce();
    expect(getUiState().messages).toEqual([]);
  });

  it('returns the value or the error, and runs one action at a time', async () => {
    const { result } = renderHook(() => useOnlineAction());
    let outcomes: unknown[] = [];
    await act(async () => {
      outcomes = await Promise.all([result.current.run(async () => 1), result.current.run(async () => 2)]);
    });
    expect(outcomes).toEqual([{ ok: true, value: 1 }, null]);
    let failed: unknown;
    await act(async () => {
      failed = await result.current.run(async () => {
        throw new Error('refused');
      });
    });
    expect(failed).toMatchObject({ ok: false, offline: false, error: new Error('refused') });
  });
});
