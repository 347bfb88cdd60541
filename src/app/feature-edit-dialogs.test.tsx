import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { findTool } from '../../domain/tools.ts';
import { OutboxList } from '../features/offline/outbox-list.tsx';
import { CommandEditorsContext } from '../lib/sync/commands/editor-context.ts';
import { queueContact, queuePurchase } from '../lib/sync/commands/kinds.ts';
import { PortalDb } from '../lib/db.ts';
import { withReplica } from '../lib/test-kit.ts';
import { ReplicaContext } from '../lib/replica.ts';
import { commandEditors } from './feature-edit-dialogs.tsx';

const system = createSystem(defaultConfig);

/** The outbox panel's list as the drawer shows it, with the app's editors. */
function Panel({ db }: { db: PortalDb }) {
  const commands = useLiveQuery(() => db.outbox.orderBy('seq').toArray(), [db]) ?? [];
  return <OutboxList db={db} commands={commands} />;
}

describe("the outbox panel's Edit", () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));
  afterEach(async () => {
    cleanup();
  });

  async function renderFailed(queue: () => Promise<string>) {
    const id = await queue();
    const command = (await db.outbox.where('commandId').equals(id).first())!;
    await db.outbox.update(command.seq!, { status: 'failed', error: 'Refused by the server' });
    render(
      <ChakraProvider value={system}>
        <ReplicaContext.Provider value={db}>
          <CommandEditorsContext.Provider value={commandEditors}>
            <Panel db={db} />
          </CommandEditorsContext.Provider>
        </ReplicaContext.Provider>
      </ChakraProvider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    return { id, seq: command.seq! };
  }

  it('opens the contact form prefilled, refuses what ContactBody refuses, and saves the fix over the command and its row', async () => {
    const { id, seq } = await renderFailed(() => queueContact(db, 'Old subject', 'Please call me.'));
    const dialog = await screen.findByRole('dialog', { name: 'Contact Us' });
    const subject = within(dialog).getByRole('textbox', { name: /Subject/ });
    expect((subject as HTMLInputElement).value).toBe('Old subject');
    expect(screen.queryByLabelText('subject')).toBeNull(); // no raw backend keys as labels any more

    fireEvent.change(subject, { target: { value: '   ' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save and send' })));
    expect(within(dialog).getByText('Subject is required')).toBeTruthy();
    expect(await db.outbox.get(seq)).toMatchObject({ commandId: id, status: 'failed', json: { contactRequest: { subject: 'Old subject', message: 'Please call me.' } } });

    fireEvent.change(subject, { target: { value: 'New subject' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save and send' })));
    await waitFor(async () => expect(await db.outbox.get(seq)).toMatchObject({ status: 'pending', label: 'Message: New subject' }));
    expect((await db.outbox.get(seq))?.commandId).not.toBe(id);
    expect((await db.contactRequests.get(id))?.subject).toBe('New subject');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Contact Us' })).toBeNull());
  });

  it("opens the tool's purchase form from the catalogue, prefilled, and saves the edited value on the request's row", async () => {
    const tool = findTool('track-master')!;
    const values = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: 'Met online.' };
    const { id, seq } = await renderFailed(() => queuePurchase(db, tool, { values, files: [] }));
    const dialog = await screen.findByRole('dialog', { name: 'Track Master Request' });
    const url = within(dialog).getByRole('textbox', { name: /Fraud URL/ });
    expect((url as HTMLInputElement).value).toBe('https://hearts.example');
    expect((within(dialog).getByRole('combobox', { name: /Fraud Type/ }) as HTMLSelectElement).value).toBe('romance');

    fireEvent.change(url, { target: { value: '' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save and send' })));
    expect(within(dialog).getByText('Fraud URL is required')).toBeTruthy();
    expect((await db.outbox.get(seq))?.status).toBe('failed');

    fireEvent.change(url, { target: { value: 'https://fixed.example' } });
    await act(async () => fireEvent.click(within(dialog).getByRole('button', { name: 'Save and send' })));
    await waitFor(async () => expect((await db.outbox.get(seq))?.json).toEqual({ trackMasterProcess: { ...values, fraudUrl: 'https://fixed.example' } }));
    expect((await db.requests.get(id))?.requestDetails.TRACK_MASTER_fraudUrl).toBe('https://fixed.example');
  });
});
