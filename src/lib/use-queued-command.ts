import { useCallback } from 'react';
import { texts } from '../../domain/texts.ts';
import { showMessage } from './ui-state.ts';
import { useOneAtATime } from './use-one-at-a-time.ts';

/** Where a queued command is: on its way now, or waiting on the device for the connection. */
export type QueueOutcome = 'sent' | 'queued';

export interface QueueTexts {
  /** Shown when the device is online, so the outbox sends it at once ("Refund Request Sent."). */
  sent: string;
  /** Shown when the command could not even be written to the device; the generic text otherwise. */
  failed?: string;
}

/**
 * Writes an outbox command (purchase, refund, contact message, initial form) and tells the user what became
 * of it. Queued is as good as sent: the outbox delivers it and reports a refusal itself, so offline the user
 * only hears that it leaves when the connection is back. One at a time, so a double click queues once.
 */
export function useQueuedCommand(): {
  queuing: boolean;
  /** Resolves to null when writing failed (already reported) or another command of this hook is under way. */
  queue(write: () => Promise<unknown>, say: QueueTexts): Promise<QueueOutcome | null>;
} {
  const { running, once } = useOneAtATime();
  const queue = useCallback(
    (write: () => Promise<unknown>, say: QueueTexts) =>
      once(async (): Promise<QueueOutcome | null> => {
        try {
          await write();
        } catch (err) {
          console.error('queueing a command failed', err);
          showMessage(say.failed ?? texts.somethingWentWrong, 'error');
          return null;
        }
        const online = navigator.onLine !== false;
        showMessage(online ? say.sent : texts.sentWhenOnline, online ? 'success' : 'info');
        return online ? 'sent' : 'queued';
      }),
    [once],
  );
  return { queuing: running, queue };
}
