import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../domain/texts.ts';
import { getUiState, removeMessage } from './ui-state.ts';
import { useQueuedCommand } from './use-queued-command.ts';

const said = () => getUiState().messages.map((m) => [m.message, m.severity]);

afterEach(() => {
  for (const m of getUiState().messages) removeMessage(m.key);
  vi.restoreAllMocks();
});

describe('useQueuedCommand', () => {
  it('online: the command is on its way, with the given text', async () => {
    const { result } = renderHook(() => useQueuedCommand());
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.queue(async () => undefined, { sent: 'Message sent' });
    });
    expect(outcome).toBe('sent');
    expect(said()).toEqual([['Message sent', 'success']]);
  });

  it('offline: queued is as good as sent, and the user hears it leaves with the connection', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { result } = renderHook(() => useQueuedCommand());
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.queue(async () => undefined, { sent: 'Message sent' });
    });
    expect(outcome).toBe('queued');
    expect(said()).toEqual([[texts.sentWhenOnline, 'info']]);
  });

  it('a write that fails says so and resolves to null; a second call while one runs is dropped', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderHook(() => useQueuedCommand());
    let release: () => void = () => undefined;
    const write = vi.fn(() => new Promise<void>((_resolve, reject) => (release = () => reject(new Error('disk full')))));
    let outcomes: unknown[] = [];
    await act(async () => {
      const first = result.current.queue(write, { sent: 'x', failed: 'Try again later' });
      const second = result.current.queue(write, { sent: 'x' });
      release();
      outcomes = await Promise.all([first, second]);
    });
    expect(outcomes).toEqual([null, null]);
    expect(write).toHaveBeenCalledTimes(1);
    expect(said()).toEqual([['Try again later', 'error']]);
  });
});
