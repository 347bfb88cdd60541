import type { OutboxCommand } from '../../db.ts';

/**
 * What the outbox panel says about a command that is still on its way. A command that could not reach the
 * server has not failed: it waits and is sent again on its own, so the words never say "failed", and the
 * browser's own texts ("Failed to fetch", "Load failed", "NetworkError when attempting to fetch resource.")
 * never reach the screen.
 */
export const outboxWords = {
  unreachable: 'This device could not reach the server. It will try again automatically.',
  waitingForNetwork: 'Waiting for the network. It will be sent automatically when this device is back online.',
  serverBusy: 'The server is busy right now. It will try again automatically.',
  /** The server's own words for a 507 (docs/decisions/023): the write waits here, nothing is lost. */
  storageFull: 'The server is out of storage space; your request is kept on your device and will be sent later.',
  /** A 403 SECOND_FACTOR_REQUIRED: the screen asks for the factor, and the write goes once this sign-in is confirmed. */
  secondFactor: 'Waiting for you to confirm this sign-in with your second factor. It will be sent right after.',
} as const;

/** The browsers' texts for a request that never got an answer, and our own for the same. */
const rawNetworkTexts = /^(failed to fetch|load failed|networkerror when attempting to fetch resource\.?|network error|connection lost|offline|the network connection was lost\.?)$/i;

/** Whether a stored error is a browser's word for "no answer" rather than the server's refusal. */
export function isRawNetworkText(error: string): boolean {
  return rawNetworkTexts.test(error.trim());
}

/**
 * The line under a command in the outbox panel, or null for none. A failed command shows the server's own
 * reason (the user can fix it); a waiting one says why it waits, in words.
 */
export function outboxErrorLine(command: Pick<OutboxCommand, 'status' | 'error'>, online: boolean): string | null {
  if (command.status === 'failed') return command.error ?? null;
  if (command.status === 'held') return command.error ?? null;
  if (!online) return outboxWords.waitingForNetwork;
  if (!command.error) return null;
  if (isRawNetworkText(command.error)) return outboxWords.unreachable;
  if (/^Server busy \(\d+\)$/.test(command.error)) return outboxWords.serverBusy;
  return command.error;
}
