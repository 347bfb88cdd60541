import { useCallback, useRef } from 'react';
import { texts } from '../../domain/texts.ts';
import { NetworkError } from './api-errors.ts';
import { withStepUp } from './session-signals.ts';
import { showMessage } from './ui-state.ts';
import { useOneAtATime } from './use-one-at-a-time.ts';

/** How an online-only action ended. `offline` failures have been reported already (texts.needsConnection). */
export type ActionOutcome<T> = { ok: true; value: T } | { ok: false; error: unknown; offline: boolean };

/** The server's own message for a failure, or the spec's generic text. */
export function failureText(err: unknown): string {
  return err instanceof Error && err.message ? err.message : texts.somethingWentWrong;
}

function sayNeedsConnection(): void {
  showMessage(texts.needsConnection, 'warning');
}

/**
 * Runs an online-only action (sign-in, password changes, uploads, downloads, admin and staff writes: never
 * queued in the outbox): says up front that it needs a connection instead of failing silently, and runs one
 * at a time so a double click sends once. Success messages and the handling of server refusals stay with
 * the caller, which knows what they mean. `onOffline` replaces the message bar where a screen shows the
 * text inline (the sign-in form).
 *
 * A sensitive admin action the server refuses with 403 STEP_UP_REQUIRED (roles, Create User, disabling an account,
 * business settings) asks for the second factor again in the layout's dialog and is sent once more; cancelled, the
 * run resolves null, as for an action already running, so the caller leaves its form as it was.
 */
export function useOnlineAction(onOffline: () => void = sayNeedsConnection): {
  running: boolean;
  /** Resolves to null when another action of this hook is still running, or the person cancelled a step-up. */
  run<T>(send: () => Promise<T>): Promise<ActionOutcome<T> | null>;
} {
  const { running, once } = useOneAtATime();
  const reportOffline = useRef(onOffline);
  reportOffline.current = onOffline;
  const run = useCallback(
    <T,>(send: () => Promise<T>) =>
      once(async (): Promise<ActionOutcome<T> | null> => {
        if (typeof navigator !== 'undefined' && navigator.onLine === false) {
          reportOffline.current();
          return { ok: false, error: new NetworkError('offline'), offline: true };
        }
        try {
          const sent = await withStepUp(send);
          return sent.cancelled ? null : { ok: true, value: sent.value };
        } catch (error) {
          const offline = error instanceof NetworkError;
          if (offline) reportOffline.current();
          return { ok: false, error, offline };
        }
      }),
    [once],
  );
  return { running, run };
}
