import { useCallback, useRef, useState } from 'react';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { type Refusal, readRefusal } from './api-refusal.ts';

/** One submission of a staff write, kept whole so it can be sent again on a fresher version. */
export interface Attempt {
  /** The action's name, as the conflict screen reports it ("Set price"). */
  label: string;
  /** The spec-style text shown once it is saved ("Price set successfully."). */
  success: string;
  /** Sends it made from `version`; everything else it needs is in the closure. */
  send(version: number): Promise<unknown>;
  /** Field names the form shows errors under; a VALIDATION_FAILED on another field goes to the message bar. */
  fields?: readonly string[];
  /** After success: the form clears itself, a popup closes. */
  onDone?(): void;
  /** "Discard" on the conflict screen: the form drops what was typed. */
  onDiscard?(): void;
}

export type FieldError = Extract<Refusal, { kind: 'field' }>;

export interface Conflict<R> {
  attempt: Attempt;
  /** The record as shown when the attempt was made. */
  before: R;
  /** The record as the server has it now, when the 409 said; otherwise the reload brings it. */
  current: R | null;
}

export interface VersionedActionOptions<R extends { version: number }> {
  /** The record as displayed now: its version goes with every write. */
  record: R;
  /** Reads the 409's `details.current`; null when it is not this kind of record. */
  parseCurrent(current: unknown): R | null;
  /** Fetches the page again; called after every success and every refusal that means the page is stale. */
  reload(): void;
}

/**
 * The workspace's optimistic concurrency, client side: every write carries the version the person saw.
 * A 409 VERSION_CONFLICT keeps the attempt (and so what was typed) and opens the conflict screen; an action
 * the status no longer allows says the server's reason; both reload the page.
 */
export function useVersionedAction<R extends { version: number }>({ record, parseCurrent, reload }: VersionedActionOptions<R>) {
  const { running, run } = useOnlineAction();
  const [conflict, setConflict] = useState<Conflict<R> | null>(null);
  // Read at send time: a redo must use the version the reload brought, not the one of the render that made it.
  const latest = useRef(record);
  latest.current = record;
  // The page follows live changes (the staff feed): what someone else saves while we fill in a form shows
  // at once, and could slip under our write unnoticed. The write is made from the record as it was when
  // we started on it, so their change still comes back as a conflict that says what changed.
  const started = useRef<R | null>(null);
  const begin = useCallback(() => {
    started.current ??= latest.current;
  }, []);

  /** Resolves to 'ok', the field error for the form to show, or null (nothing more for the caller to do). */
  async function perform(attempt: Attempt): Promise<'ok' | FieldError | null> {
    const before = started.current ?? latest.current;
    started.current = null;
    const outcome = await run(() => attempt.send(before.version));
    if (!outcome) return null;
    if (outcome.ok) {
      setConflict(null);
      showMessage(attempt.success, 'success');
      attempt.onDone?.();
      reload();
      return 'ok';
    }
    if (outcome.offline) return null;
    const refusal = readRefusal(outcome.error);
    switch (refusal.kind) {
      case 'conflict':
        setConflict({ attempt, before, current: parseCurrent(refusal.current) });
        reload();
        return null;
      case 'not-allowed':
        setConflict(null);
        showMessage(refusal.message, 'error');
        reload();
        return null;
      case 'field':
        if (attempt.fields?.includes(refusal.field)) return refusal;
        showMessage(`${refusal.field}: ${refusal.message}`, 'error');
        return null;
      default:
        showMessage(refusal.message, 'error');
        return null;
    }
  }

  return {
    running,
    perform,
    /** Call when the person starts on an action (types in its form, opens its confirmation): see `started`. */
    begin,
    /** Props for the element holding the action's forms: typing or clicking in it is starting on the action. */
    startProps: { onInputCapture: begin, onClickCapture: begin },
    conflict,
    /** Sends the kept attempt again, made from the fresh version. */
    redo: () => {
      // On the fresh state, whatever was typed while it loaded.
      started.current = null;
      return conflict ? perform(conflict.attempt) : Promise.resolve(null);
    },
    discard: () => {
      conflict?.attempt.onDiscard?.();
      started.current = null;
      setConflict(null);
    },
  };
}

export type VersionedAction<R extends { version: number }> = ReturnType<typeof useVersionedAction<R>>;
