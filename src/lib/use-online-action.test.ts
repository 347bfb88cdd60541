import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../domain/texts.ts';
import { ApiError, NetworkError } from './api-errors.ts';
import { getStepUpQuestion, registerStepUpDialog, requestStepUp } from './session-signals.ts';
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

  describe('an action the server wants stepped up (403 STEP_UP_REQUIRED)', () => {
    const stepUp = () => new ApiError(403, 'STEP_UP_REQUIRED', 'Confirm it is you.');

    /** Answers the dialog's question the way `verified` says, as the step-up dialog would. */
    async function runAnswering(verified: boolean) {
      const unregister = registerStepUpDialog();
      const send = vi.fn(async () => {
        if (send.mock.calls.length === 1) throw stepUp();
        return 'saved';
      });
      const { result } = renderHook(() => useOnlineAction());
      let outcome: unknown;
      await act(async () => {
        const running = result.current.run(send);
        await vi.waitFor(() => expect(getStepUpQuestion()).not.toBeNull());
        getStepUpQuestion()!.answer(verified);
        outcome = await running;
      });
      expect(getStepUpQuestion()).toBeNull();
      unregister();
      return { outcome, send };
    }

    it('asks for the factor again and sends once more after it was verified', async () => {
      const { outcome, send } = await runAnswering(true);
      expect(send).toHaveBeenCalledTimes(2);
      expect(outcome).toEqual({ ok: true, value: 'saved' });
    });

    it('cancelled, sends nothing more and resolves null, so the form stays as it was', async () => {
      const { outcome, send } = await runAnswering(false);
      expect(send).toHaveBeenCalledOnce();
      expect(outcome).toBeNull();
      expect(getUiState().messages).toEqual([]);
    });

    it('with no dialog to ask, the action resolves null without a second send', async () => {
      const send = vi.fn(async () => {
        throw stepUp();
      });
      const { result } = renderHook(() => useOnlineAction());
      let outcome: unknown = 'not run';
      await act(async () => {
        outcome = await result.current.run(send);
      });
      expect(outcome).toBeNull();
      expect(send).toHaveBeenCalledOnce();
      expect(await requestStepUp()).toBe(false);
    });
  });
});
