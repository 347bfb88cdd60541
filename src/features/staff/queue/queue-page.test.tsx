import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueuePage as Page, QueueTab } from '../../../../domain/staff.ts';
import { PortalDb } from '../../../lib/db.ts';
import { withReplica } from '../../../lib/test-kit.ts';
import { ReplicaContext } from '../../../lib/replica.ts';

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to, params: _params, hash, ...rest }: { children: ReactNode; to: string; params?: unknown; hash?: string }) => (
    <a href={hash ? `${to}#${hash}` : to} {...rest}>
      {children}
    </a>
  ),
}));
const apiGet = vi.fn();
vi.mock('../../../lib/api.ts', async (orig) => ({ ...(await orig<typeof import('../../../lib/api.ts')>()), apiGet: (...a: unknown[]) => apiGet(...a) }));

const { QueuePage } = await import('./queue-page.tsx');
const system = createSystem(defaultConfig);

const lead = (n: number) => ({ kind: 'lead' as const, uid: `u${n}`, email: `lead${n}@demo.test`, name: `Lead ${n}`, createdAt: '2026-01-05T00:00:00.000Z', filledInitialForm: n % 2 === 0 });
const page = (items: Page['items'], nextCursor: string | null): Page => ({
  tab: 'leads',
  counts: { leads: 3, threads: 4, refunds: 1, pending: 7, awaiting: 0, inProgress: 1, done: 2 },
  items,
  nextCursor,
});

let db: PortalDb;
withReplica((opened) => (db = opened), () => 'staff-queue-test');
beforeEach(async () => {
  apiGet.mockReset();
});
afterEach(async () => {
  cleanup();
});

function show(onChange = vi.fn(), q = '', tab: QueueTab = 'leads') {
  render(
    <ChakraProvider value={system}>
      <ReplicaContext.Provider value={db}>
        <QueuePage tab={tab} q={q} onChange={onChange} />
      </ReplicaContext.Provider>
    </ChakraProvider>,
  );
  return onChange;
}

describe('staff queue', () => {
  it('shows the counts and appends the next page with the cursor', async () => {
    apiGet.mockResolvedValueOnce(page([lead(1), lead(2)], 'c1')).mockResolvedValueOnce(page([lead(3)], null));
    show();
    expect(await screen.findByRole('link', { name: 'Lead 1' })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /To price\s*7/ })).toBeTruthy();
    expect(screen.getAllByText('Not filled')).toHaveLength(1);
    expect(apiGet.mock.calls[0][0]).toBe('/staff/queue?tab=leads');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Load more' })));
    expect(apiGet.mock.calls[1][0]).toBe('/staff/queue?tab=leads&cursor=c1');
    expect(await screen.findByRole('link', { name: 'Lead 3' })).toBeTruthy();
    expect(screen.getAllByTestId('queue-row')).toHaveLength(3);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('hands the search over after a pause, trimmed', async () => {
    apiGet.mockResolvedValue(page([], null));
    const onChange = show();
    fireEvent.change(screen.getByLabelText('Search'), { target: { value: ' lead2 ' } });
    expect(onChange).not.toHaveBeenCalled();
    await waitFor(() => expect(onChange).toHaveBeenCalledWith({ tab: 'leads', q: 'lead2' }));
    expect(onChange).toHaveBeenCalledTimes(1);
  });

  it('says nothing was found for a search, and the tab\'s own text otherwise', async () => {
    apiGet.mockResolvedValue(page([], null));
    show(vi.fn(), 'nobody');
    expect(await screen.findByText("We couldn't find anything.")).toBeTruthy();
    expect(apiGet.mock.calls[0][0]).toBe('/staff/queue?tab=leads&q=nobody');
    cleanup();
    show();
    expect(await screen.findByText('No leads are waiting for approval.')).toBeTruthy();
  });

  it('lists conversations awaiting our reply, each opening its client page at the conversation', async () => {
    const client = { uid: 'c1', email: 'casey@demo.test', name: 'Casey Client' };
    apiGet.mockResolvedValue({ ...page([{ kind: 'thread', id: 't1', subject: 'Where is my report?', awaitingSince: '2026-01-05T09:30:00.000Z', client }], null), tab: 'threads' });
    show(vi.fn(), '', 'threads');
    expect(await screen.findByText('Where is my report?')).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Awaiting our reply\s*4/ })).toBeTruthy();
    expect(screen.getByRole('tab', { name: /Refunds to decide\s*1/ })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open' }).getAttribute('href')).toBe('/staff/clients/$uid#thread-t1');
  });

  it('opens a tab from the device when the server cannot be reached', async () => {
    apiGet.mockResolvedValueOnce(page([lead(1)], null));
    show();
    expect(await screen.findByRole('link', { name: 'Lead 1' })).toBeTruthy();
    await waitFor(async () => expect(await db.staffQueue.get('leads||')).toBeTruthy());
    cleanup();
    const { NetworkError } = await import('../../../lib/api-errors.ts');
    apiGet.mockRejectedValue(new NetworkError('offline'));
    show();
    expect(await screen.findByRole('link', { name: 'Lead 1' })).toBeTruthy();
    expect(await screen.findByText(/^Offline copy from /)).toBeTruthy();
    expect(screen.getByRole('tab', { name: /To price\s*7/ })).toBeTruthy();
  });
});
