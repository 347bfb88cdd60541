import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { QueuePage as Page } from '../../../../domain/staff.ts';

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to, params: _params, ...rest }: { children: ReactNode; to: string; params?: unknown }) => (
    <a href={to} {...rest}>
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
  counts: { leads: 3, pending: 7, awaiting: 0, inProgress: 1, done: 2 },
  items,
  nextCursor,
});

beforeEach(() => apiGet.mockReset());
afterEach(() => cleanup());

function show(onChange = vi.fn(), q = '') {
  render(
    <ChakraProvider value={system}>
      <QueuePage tab="leads" q={q} onChange={onChange} />
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
});
