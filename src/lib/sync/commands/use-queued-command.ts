import { liveQuery } from 'dexie';
import { useCallback } from 'react';
import { texts } from '../../../../domain/texts.ts';
import type { OutboxCommand, PortalDb } from '../../db.ts';
import { useReplica } from '../../replica.ts';
import { showMessage } from '../../ui-state.ts';
import { useOneAtATime } from '../../use-one-at-a-time.ts';

/**
 * What became of a command: the server took it ('sent'), it waits safely on the device ('queued'), or the
 * server refused it ('failed': it stays in the outbox, where the user can edit or discard it).
 */
export type QueueOutcome = 'sent' | 'queued' | 'failed';

export interface QueueTexts {
  /** The spec's success text ("Refund Request Sent."), shown only once the server has taken the command. */
  sent: string;
  /** Shown when the command could not even be written to the device; the generic text otherwise. */
  failed?: string;
}

/**
 * How long the hook waits, online, for the sender to settle a command before it says "saved on this device".
 * Long enough for a normal round trip with a token refresh; short enough that a button does not spin forever.
 */
export const SETTLE_MS = 8000;

export interface QueuedCommandOptions {
  /** Overrides SETTLE_MS (tests use a few milliseconds). */
  settleMs?: number;
}

/** What the server said of a refused command, and where the user can fix it. */
export function refusedText(serverMessage: string | undefined): string {
  return `Not sent: ${serverMessage ?? texts.somethingWentWrong} Open the outbox to edit or discard it.`;
}

/** Sent or safely queued: the caller may close its dialog or clear its form; after 'failed' it keeps them. */
export function isAccepted(outcome: QueueOutcome | null): outcome is 'sent' | 'queued' {
  return outcome === 'sent' || outcome === 'queued';
}

type Settled = { outcome: 'sent' } | { outcome: 'queued' } | { outcome: 'failed'; error: string | undefined };

/** Where the command stands in the outbox now; 'on its way' until the sender has done something final with it. */
type Progress = Settled | { outcome: 'on its way' };

/**
 * Reads where command `id` stands. Gone means the server's answer was applied; 'failed' means it refused.
 * Waiting for a back-off (after a network error or a 5xx) or a sign-in, its own or that of a command ahead
 * of it (the sender is FIFO), means no answer is coming soon: it is queued, and waiting on would only spin.
 */
async function progressOf(db: PortalDb, id: string): Promise<Progress> {
  const command = await db.outbox.where('commandId').equals(id).first();
  if (!command) return { outcome: 'sent' };
  if (command.status === 'failed') return { outcome: 'failed', error: command.error };
  const now = Date.now();
  const stuck = (c: OutboxCommand) => c.status === 'held' || (c.status === 'pending' && c.nextAttemptAt > now);
  if (stuck(command)) return { outcome: 'queued' };
  const stuckAhead = await db.outbox.where('seq').below(command.seq!).filter(stuck).count();
  return stuckAhead > 0 ? { outcome: 'queued' } : { outcome: 'on its way' };
}

/**
 * Watches the outbox until the sender settles command `id` (see progressOf), or `ms` pass: then it is still
 * queued. The outbox is watched, not the sender, because the sender may run in another tab (one per user,
 * Web Locks); Dexie's live queries see that tab's writes too.
 */
export function waitForSettled(db: PortalDb, id: string, ms: number): Promise<Settled> {
  return new Promise((resolve) => {
    let done = false;
    let stop: (() => void) | null = null;
    const finish = (settled: Settled) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stop?.();
      resolve(settled);
    };
    const timer = setTimeout(() => finish({ outcome: 'queued' }), ms);
    const subscription = liveQuery(() => progressOf(db, id)).subscribe({
      next(progress) {
        if (progress.outcome !== 'on its way') finish(progress);
      },
      // A replica closed under the wait (sign-out): the command, if any, is still on the device.
      error: () => finish({ outcome: 'queued' }),
    });
    stop = () => subscription.unsubscribe();
    if (done) stop();
  });
}

/**
 * Writes an outbox command (purchase, refund, contact message, initial form) and tells the user honestly
 * what became of it. Offline it says at once that the command waits on the device. Online it waits briefly
 * for the server's answer: the spec's success text only once the server has taken it, the server's own
 * words when it refuses, and "saved on this device" when no answer is coming soon (a 5xx or network error
 * put it in back-off, a sign-in is needed, or the wait ran out); the row shows it waiting meanwhile.
 * One at a time, so a double click queues once.
 */
export function useQueuedCommand(options: QueuedCommandOptions = {}): {
  /** True while the command is written and, online, while the hook waits for the server's answer. */
  queuing: boolean;
  /**
   * `write` queues the command and resolves to its id. Resolves to null when writing failed (already
   * reported) or another command of this hook is under way.
   */
  queue(write: () => Promise<string>, say: QueueTexts): Promise<QueueOutcome | null>;
} {
  const db = useReplica();
  const settleMs = options.settleMs ?? SETTLE_MS;
  const { running, once } = useOneAtATime();
  const queue = useCallback(
    (write: () => Promise<string>, say: QueueTexts) =>
      once(async (): Promise<QueueOutcome | null> => {
        let id: string;
        try {
          id = await write();
        } catch (err) {
          console.error('queueing a command failed', err);
          showMessage(say.failed ?? texts.somethingWentWrong, 'error');
          return null;
        }
        // Offline nothing can settle it: no point in a spinner.
        if (navigator.onLine === false) {
          showMessage(texts.sentWhenOnline, 'info');
          return 'queued';
        }
        const settled = await waitForSettled(db, id, settleMs);
        if (settled.outcome === 'sent') showMessage(say.sent, 'success');
        else if (settled.outcome === 'failed') showMessage(refusedText(settled.error), 'error');
        else showMessage(texts.savedOnDevice, 'info');
        return settled.outcome;
      }),
    [once, db, settleMs],
  );
  return { queuing: running, queue };
}
