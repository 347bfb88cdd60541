import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, renderHook, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../../../domain/texts.ts';
import { ApiError, NetworkError } from '../../../lib/api-errors.ts';
import { type LocalRequest, PortalDb } from '../../../lib/db.ts';
import { localRequest, withReplica } from '../../../lib/test-kit.ts';
import { ReplicaContext } from '../../../lib/replica.ts';

// The file-link endpoint, as the hook reaches it: every call is counted; each answers what `answer` says.
const calls: string[] = [];
let answer: (path: string) => Promise<unknown> = async (path) => `https://portal.test/api/download/token-for${path.replaceAll('/', '-')}`;
vi.mock('../../../lib/api.ts', async (orig) => ({
  ...(await orig<typeof import('../../../lib/api.ts')>()),
  apiGet: (path: string) => {
    calls.push(path);
    return answer(path);
  },
}));
let savedCopy = false;
vi.mock('../../../lib/pwa.ts', async (orig) => ({ ...(await orig<typeof import('../../../lib/pwa.ts')>()), hasSavedCopy: async () => savedCopy }));

const { LINK_FRESH_MS, isPaidInFull, useFinalFileLink } = await import('./use-final-file-link.ts');
const { RequestsTable } = await import('./requests-table.tsx');

/** A Done request, priced and paid in full. */
const request = (id: string, extra: Partial<LocalRequest> = {}): LocalRequest =>
  localRequest(id, { Created_Time: '2026-01-05T10:00:00.000Z', status: 'Done', contractSigned: true, totalAmount: 500, paid: 500, leftToPay: 0, updatedAt: '2026-01-05T10:00:00.000Z', ...extra });

let db: PortalDb;
withReplica((opened) => (db = opened));

beforeEach(async () => {
  calls.length = 0;
  savedCopy = false;
  answer = async (path) => `https://portal.test/api/download/token-for${path.replaceAll('/', '-')}`;
});

afterEach(async () => {
  cleanup();
  vi.useRealTimers();
});

const wrapper = ({ children }: { children: ReactNode }) => <ReplicaContext.Provider value={db}>{children}</ReplicaContext.Provider>;

function hook(initial: { request: LocalRequest; online?: boolean; wanted?: boolean }) {
  return renderHook((props: { request: LocalRequest; online: boolean; wanted: boolean }) => useFinalFileLink(props.request, props.online, props.wanted), {
    wrapper,
    initialProps: { online: true, wanted: false, ...initial },
  });
}

/**
 * Lets pending promises (the mocked call, Dexie) settle. Only before an assertion that something does NOT
 * happen (no call, no second call): that has no event to wait for, so it gets a fixed window. What does
 * happen is awaited with `waitFor`.
 */
const settle = () => act(async () => new Promise((r) => setTimeout(r, 20)));

describe('isPaidInFull', () => {
  it('follows the server: a price is set and nothing is left to pay', () => {
    expect(isPaidInFull({ totalAmount: 500, paid: 500, leftToPay: 0 })).toBe(true);
    expect(isPaidInFull({ totalAmount: 500, paid: 499.99, leftToPay: 0.01 })).toBe(false);
    expect(isPaidInFull({ totalAmount: null, paid: 0, leftToPay: null })).toBe(false);
    // An optimistic row without leftToPay: computed in whole cents.
    expect(isPaidInFull({ totalAmount: 0.3, paid: 0.1 + 0.2, leftToPay: null })).toBe(true);
  });
});

describe('useFinalFileLink', () => {
  it('asks for nothing on mount, even for a Done row paid in full', async () => {
    const { result } = hook({ request: request('r1') });
    await settle();
    expect(calls).toEqual([]);
    expect(result.current.state).toEqual({ kind: 'idle' });
  });

  it('knows "not fully paid" from the replica, without a call, even with the menu open', async () => {
    const { result } = hook({ request: request('r1', { paid: 200, leftToPay: 300 }), wanted: true });
    await settle();
    expect(calls).toEqual([]);
    expect(result.current.state).toEqual({ kind: 'unpaid' });
  });

  it('fetches once when the menu opens, shows loading meanwhile, and reuses the fresh link when reopened', async () => {
    let resolve!: (link: string) => void;
    answer = () => new Promise((r) => (resolve = r));
    const { result, rerender } = hook({ request: request('r1') });
    const r1 = request('r1');
    rerender({ request: r1, online: true, wanted: true });
    expect(result.current.state).toEqual({ kind: 'loading' });
    expect(calls).toEqual(['/track-master/r1/file']);
    await act(async () => resolve('https://portal.test/api/download/abc'));
    expect(result.current.state).toMatchObject({ kind: 'ready', link: 'https://portal.test/api/download/abc' });
    expect((await db.meta.get('finalFileLink:r1'))?.value).toBe('https://portal.test/api/download/abc');

    rerender({ request: r1, online: true, wanted: false });
    rerender({ request: r1, online: true, wanted: true });
    await settle();
    expect(calls).toHaveLength(1);
  });

  it('asks again when the menu opens after the signed link has gone stale', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const r1 = request('r1');
    const { result, rerender } = hook({ request: r1, wanted: true });
    await waitFor(() => expect(result.current.state.kind).toBe('ready'));
    rerender({ request: r1, online: true, wanted: false });
    vi.setSystemTime(Date.now() + LINK_FRESH_MS + 1_000);
    rerender({ request: r1, online: true, wanted: true });
    await waitFor(() => expect(calls).toHaveLength(2));
  });

  it('shows the server message when the file is not ready, and does not retry in a loop', async () => {
    answer = async () => {
      throw new ApiError(404, 'FILE_NOT_READY', 'The final file is not ready yet.');
    };
    const { result } = hook({ request: request('r1'), wanted: true });
    await waitFor(() => expect(result.current.state).toEqual({ kind: 'error', message: 'The final file is not ready yet.' }));
    await settle();
    expect(calls).toHaveLength(1);
  });

  it('offline: no call; the saved copy opens if there is one, otherwise it says a connection is needed', async () => {
    const { result, rerender } = hook({ request: request('r1'), online: false, wanted: true });
    await waitFor(() => expect(result.current.state).toEqual({ kind: 'error', message: texts.needsConnection }));
    expect(calls).toEqual([]);

    await db.meta.put({ key: 'finalFileLink:r2', value: 'https://portal.test/api/download/saved' });
    savedCopy = true;
    rerender({ request: request('r2'), online: false, wanted: true });
    await waitFor(() => expect(result.current.state).toMatchObject({ kind: 'ready', link: 'https://portal.test/api/download/saved' }));
    expect(calls).toEqual([]);
  });

  it('a connection lost mid-call says a connection is needed, and retries when the browser is back online', async () => {
    answer = async () => {
      throw new NetworkError('Failed to fetch');
    };
    const r1 = request('r1');
    const { result, rerender } = hook({ request: r1, wanted: true });
    await waitFor(() => expect(result.current.state).toEqual({ kind: 'error', message: texts.needsConnection }));
    rerender({ request: r1, online: false, wanted: true });
    answer = async () => 'https://portal.test/api/download/back';
    rerender({ request: r1, online: true, wanted: true });
    await waitFor(() => expect(result.current.state).toMatchObject({ kind: 'ready', link: 'https://portal.test/api/download/back' }));
    expect(calls).toHaveLength(2);
  });

  it('a payment arriving through sync while the menu is open makes the download available', async () => {
    const { result, rerender } = hook({ request: request('r1', { paid: 100, leftToPay: 400 }), wanted: true });
    await waitFor(() => expect(result.current.state).toEqual({ kind: 'unpaid' }));
    rerender({ request: request('r1'), online: true, wanted: true });
    await waitFor(() => expect(result.current.state.kind).toBe('ready'));
    expect(calls).toHaveLength(1);
  });

  it("the server's NOT_FULLY_PAID wins over a replica that is behind", async () => {
    answer = async () => {
      throw new ApiError(403, 'NOT_FULLY_PAID', texts.notFullyPaid);
    };
    const { result } = hook({ request: request('r1'), wanted: true });
    await waitFor(() => expect(result.current.state).toEqual({ kind: 'unpaid' }));
  });
});

describe('a table page of Done rows', () => {
  it('makes no file-link call until one row menu opens, then exactly one', async () => {
    await db.requests.bulkAdd(
      Array.from({ length: 50 }, (_, i) =>
        request(`r${String(i).padStart(2, '0')}`, { Created_Time: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(), ...(i % 5 === 0 ? { paid: 100, leftToPay: 400 } : {}) }),
      ),
    );
    render(
      <ChakraProvider value={defaultSystem}>
        <ReplicaContext.Provider value={db}>
          <RequestsTable title="Track Master" />
        </ReplicaContext.Provider>
      </ChakraProvider>,
    );
    // Fifty rows of a Chakra table: their first render alone can outlast the 1 s default on a loaded machine.
    await waitFor(() => expect(document.querySelectorAll('tbody tr')).toHaveLength(50), { timeout: 15_000 });
    await settle();
    expect(calls).toEqual([]);

    const row = document.querySelector<HTMLElement>('tr[data-request-id="r01"]')!;
    fireEvent.click(row.querySelector('button[aria-label="Actions"]')!);
    await screen.findByRole('menuitem', { name: /Download File/ }, { timeout: 15_000 });
    await waitFor(() => expect(calls).toEqual(['/track-master/r01/file']));
    // Exactly one: no second call follows the first.
    await settle();
    expect(calls).toEqual(['/track-master/r01/file']);
  }, 30_000);
});
