// This worker's mail inbox (scripts/mail-inbox.ts, run by its stack): what the portal has emailed, as a mail
// provider received it. Specs wait on it with expect.poll; each mail's `headers` are the raw header lines by
// lower-case name (message-id, list-unsubscribe, list-unsubscribe-post, …).
import type { InboxMessage } from '../../../scripts/mail-inbox.ts';
import { inboxOf } from './stack.ts';

export type { InboxMessage };

/** Every mail this worker's stack has sent, oldest first. */
export async function inboxMessages(index?: number): Promise<InboxMessage[]> {
  const res = await fetch(`${inboxOf(index)}/api/messages`);
  if (!res.ok) throw new Error(`mail inbox: HTTP ${res.status}`);
  return ((await res.json()) as { data: InboxMessage[] }).data;
}

/** The mail sent to `address` (the SMTP envelope's recipient), oldest first. */
export async function mailTo(address: string, index?: number): Promise<InboxMessage[]> {
  const wanted = address.toLowerCase();
  return (await inboxMessages(index)).filter((m) => m.envelope.to.some((to) => to.toLowerCase() === wanted));
}

/** Empties the inbox (the stack is shared by the worker's specs, one after another). */
export async function clearInbox(index?: number): Promise<void> {
  const res = await fetch(`${inboxOf(index)}/api/messages`, { method: 'DELETE' });
  if (!res.ok) throw new Error(`mail inbox: HTTP ${res.status}`);
}
