import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { texts } from '../../../../domain/texts.ts';
import { type LocalContactReply, type LocalContactRequest, PortalDb } from '../../../lib/db.ts';
import { withReplica } from '../../../lib/test-kit.ts';
import { ReplicaContext } from '../../../lib/replica.ts';
import { getUiState, removeMessage } from '../../../lib/ui-state.ts';
import { ContactRequestsPage } from './contact-requests-page.tsx';
import { closedThreadText, replyError } from './contact-thread.tsx';

const thread = (id: string, extra: Partial<LocalContactRequest> = {}): LocalContactRequest => ({
  id,
  subject: `Subject ${id}`,
  message: `First message of ${id}`,
  createdAt: '2026-01-10T08:00:00.000Z',
  status: 'open',
  ...extra,
});

const reply = (id: string, threadId: string, author: 'client' | 'staff', createdAt: string): LocalContactReply => ({
  id,
  threadId,
  author,
  message: `Reply ${id}`,
  createdAt,
});

let db: PortalDb;
withReplica((opened) => (db = opened));


afterEach(async () => {
  cleanup();
  for (const m of getUiState().messages) removeMessage(m.key);
});

function renderPage() {
  render(
    <ChakraProvider value={defaultSystem}>
      <ReplicaContext.Provider value={db}>
        <ContactRequestsPage />
      </ReplicaContext.Provider>
    </ChakraProvider>,
  );
}

/** The list item of a thread, found by its subject. */
async function item(subject: string): Promise<HTMLElement> {
  const items = await screen.findAllByTestId('contact-request');
  const found = items.find((li) => within(li).queryByText(subject));
  if (!found) throw new Error(`no thread ${subject}`);
  return found;
}

describe('contact requests threads', () => {
  it('shows each thread as the spec lists it, with its state and reply count', async () => {
    await db.contactRequests.bulkAdd([thread('t1', { status: 'closed' }), thread('t2', { createdAt: '2026-01-11T08:00:00.000Z' })]);
    await db.contactReplies.bulkAdd([reply('r1', 't1', 'staff', '2026-01-10T09:00:00.000Z'), reply('r2', 't1', 'client', '2026-01-10T10:00:00.000Z')]);
    renderPage();
    const closed = await item('Subject t1');
    expect(within(closed).getByText('10/01/2026')).toBeTruthy();
    expect(within(closed).getByText('First message of t1')).toBeTruthy();
    expect(within(closed).getByTestId('thread-status').textContent).toBe('Closed');
    expect(within(closed).getByTestId('reply-count').textContent).toBe('2 replies');
    const open = await item('Subject t2');
    expect(within(open).getByTestId('thread-status').textContent).toBe('Open');
    expect(within(open).queryByTestId('reply-count')).toBeNull();
    // Newest thread first, as before threads.
    expect(screen.getAllByTestId('contact-request')[0]).toBe(open);
  });

  it('opens the conversation oldest first and queues a reply that shows at once, badged', async () => {
    await db.contactRequests.add(thread('t1', { status: 'closed' }));
    await db.contactReplies.bulkAdd([reply('r2', 't1', 'client', '2026-01-10T10:00:00.000Z'), reply('r1', 't1', 'staff', '2026-01-10T09:00:00.000Z')]);
    renderPage();
    const li = await item('Subject t1');
    const toggle = within(li).getByRole('button', { name: 'Show conversation' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    await waitFor(() => expect(within(li).getByRole('button', { name: 'Hide conversation' }).getAttribute('aria-expanded')).toBe('true'));

    const shown = within(li).getAllByTestId('contact-reply');
    expect(shown.map((r) => r.dataset.author)).toEqual(['staff', 'client']);
    expect(within(shown[0]).getByText('Support')).toBeTruthy();
    expect(within(shown[1]).getByText('You')).toBeTruthy();
    expect(within(shown[0]).getByText(/^10\/01\/2026 \d\d:\d\d$/)).toBeTruthy();
    expect(within(li).getByText(closedThreadText)).toBeTruthy();
    // Opening it tells the server it was seen up to its newest reply, once.
    const replies = () => db.outbox.filter((c) => c.kind === 'contactReply');
    const seen = await waitFor(async () => (await db.outbox.filter((c) => c.kind === 'seen').toArray())[0] ?? Promise.reject(new Error('not marked yet')));
    expect(seen).toMatchObject({ method: 'PUT', path: '/seen', json: { kind: 'thread', id: 't1', replyId: 'r2' } });

    // Empty (or blank) is refused by ReplyBody's rule before anything is queued.
    const box = within(li).getByLabelText('Your reply', { exact: false });
    expect(box.getAttribute('maxlength')).toBe('2000');
    fireEvent.change(box, { target: { value: '   ' } });
    fireEvent.click(within(li).getByRole('button', { name: 'Send' }));
    expect(await within(li).findByText('Message is required')).toBeTruthy();
    expect(await replies().count()).toBe(0);

    fireEvent.change(box, { target: { value: '  Any news on my case?  ' } });
    fireEvent.click(within(li).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(within(li).getAllByTestId('contact-reply')).toHaveLength(3));
    const command = await waitFor(async () => (await replies().toArray())[0] ?? Promise.reject(new Error('not queued yet')));
    expect(command).toMatchObject({ kind: 'contactReply', method: 'POST', path: '/contact/t1/replies', json: { reply: { message: 'Any news on my case?' } } });
    const mine = within(li).getAllByTestId('contact-reply')[2];
    expect(within(mine).getByText('You')).toBeTruthy();
    expect(within(mine).getByText('Any news on my case?')).toBeTruthy();
    expect(within(mine).getByText(texts.waitingToSend)).toBeTruthy();
    expect(within(li).getByTestId('reply-count').textContent).toBe('3 replies');
    // Honest feedback waits for the server: no success text while the reply is only on the device.
    expect(getUiState().messages.map((m) => m.message)).not.toContain(texts.messageSent);
    await db.outbox.delete(command.seq!);
    await waitFor(() => expect((box as HTMLTextAreaElement).value).toBe(''));
    expect(getUiState().messages.map((m) => m.message)).toContain(texts.messageSent);
  });

  it('offers no conversation on a thread still in the outbox: it has no server id to reply to', async () => {
    await db.contactRequests.add(thread('cmd-1', { pending: true, commandId: 'cmd-1' }));
    renderPage();
    const li = await item('Subject cmd-1');
    expect(within(li).getByText(texts.waitingToSend)).toBeTruthy();
    expect(within(li).queryByRole('button', { name: 'Show conversation' })).toBeNull();
  });
});

describe('replyError', () => {
  it('follows ReplyBody: trimmed, 1 to 2000 characters', () => {
    expect(replyError('')).toBe('Message is required');
    expect(replyError('  \n ')).toBe('Message is required');
    expect(replyError('x'.repeat(2001))).toBe('Message must be at most 2000 characters');
    expect(replyError(`  ${'x'.repeat(2000)}  `)).toBeNull();
  });
});
