import { useCallback, useRef, useState } from 'react';
import { texts } from '../../domain/texts.ts';
import { NetworkError } from './api.ts';
import { showMessage } from './ui-state.ts';

/** How an online-only action ended. `offline` failures have been reported already (texts.needsConnection). */
export type ActionOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown; offline: boolean };

/** The server's own message for a failure, or the spec's generic text. */
export function failureText(err: unknown): string {
  return err instanceof Error && err.message ? err.message : texts.somethingWentWrong;
}

/**
 * Runs an online-only action (admin and staff writes, which are never queued in the outbox): says up front that
 * it needs a connection instead of failing silently, and runs one at a time so a double click sends once.
 * Success messages and the handling of server refusals stay with the caller, which knows what they mean.
 */
export function useOnlineAction(): {
  running: boolean;
  /** Resolves to null when another action of this hook is still running. */
  run<T>(send: () => Promise<T>): Promise<ActionOutcome<T> | null>;
} {
  const [running, setRunning] = useState(false);
  // A ref as well as state: two clicks in one frame both see the state as it was before the first.
  const busy = useRef(false);
  const run = useCallback(async <T>(send: () => Promise<T>): Promise<ActionOutcome<T> | null> => {
    if (busy.current) return null;
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      showMessage(texts.needsConnection, 'warning');
      return { ok: false, error: new NetworkError('offline'), offline: true };
    }
    busy.current = true;
    setRunning(true);
    try {
      return { ok: true, value: await send() };
    } catch (error) {
      const offline = error instanceof NetworkError;
      if (offline) showMessage(texts.needsConnection, 'warning');
      return { ok: false, error, offline };
    } finally {
      busy.current = false;
      setRunning(false);
    }
  }, []);
  return { running, run };
}
