import { z } from 'zod';
import { SESSION_END_TEXTS, SessionEndReason } from '../../domain/security.ts';

/**
 * What the login page says after a session the server ended (signed out from another device, the account disabled).
 * Apart from session-signals.ts so that the sign-in screen loads nothing more than the domain's texts.
 */

/** Kept in sessionStorage: the sign-out wipes the replica, and the login page may be a reload later. */
const END_NOTICE_KEY = 'portal:session-ended';

const SessionEndNotice = z.object({ reason: SessionEndReason, unsent: z.number().int().min(0) });
export type SessionEndNotice = z.infer<typeof SessionEndNotice>;

export function keepSessionEndNotice(notice: SessionEndNotice): void {
  try {
    sessionStorage.setItem(END_NOTICE_KEY, JSON.stringify(notice));
  } catch {
    // storage refused: the login page shows no reason
  }
}

export function readSessionEndNotice(): SessionEndNotice | null {
  try {
    const parsed = SessionEndNotice.safeParse(JSON.parse(sessionStorage.getItem(END_NOTICE_KEY) ?? 'null'));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function clearSessionEndNotice(): void {
  try {
    sessionStorage.removeItem(END_NOTICE_KEY);
  } catch {
    // nothing kept
  }
}

/** The plain sentence, and what became of the commands the device had not sent: never reported as sent. */
export function sessionEndText({ reason, unsent }: SessionEndNotice): string {
  const lost = unsent === 0 ? '' : ` ${unsent} ${unsent === 1 ? 'change' : 'changes'} made on this device had not been sent and ${unsent === 1 ? 'was' : 'were'} not kept; please make ${unsent === 1 ? 'it' : 'them'} again after signing in.`;
  return SESSION_END_TEXTS[reason] + lost;
}

