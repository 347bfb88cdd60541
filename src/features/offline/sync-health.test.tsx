import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PortalDb } from '../../lib/db.ts';
import { ReplicaContext } from '../../lib/replica.ts';
import { type SyncHealth, recordSyncError } from '../../lib/sync.ts';
import { OfflineIndicator } from './offline-indicator.tsx';
import { SyncHealthView, formatSyncedAt } from './sync-health.tsx';

const system = createSystem(defaultConfig);
const at = (iso: string) => new Date(iso).getTime();

function renderView(health: SyncHealth, online = true, onRetry = vi.fn(async () => null)) {
  render(
    <ChakraProvider value={system}>
      <SyncHealthView health={health} online={online} onRetry={onRetry} />
    </ChakraProvider>,
  );
  return onRetry;
}

afterEach(cleanup);

describe('sync health', () => {
  it('gives the time alone today, and the date too on another day', () => {
    const now = at('2026-03-04T18:00:00');
    expect(formatSyncedAt(at('2026-03-04T09:05:00'), now)).toBe('09:05');
    expect(formatSyncedAt(at('2026-03-03T23:59:00'), now)).toBe('03/03/2026 23:59');
  });

  it('says when the device last synced', () => {
    renderView({ lastSyncedAt: Date.now(), error: null });
    expect(screen.getByTestId('last-synced').textContent).toMatch(/^Last synced \d\d:\d\d$/);
  });

  it("shows Can't sync with the reason and a Retry that pulls again", async () => {
    const onRetry = renderView({ lastSyncedAt: at('2026-03-03T10:15:00'), error: { message: 'Request failed (500)', at: Date.now() } });
    expect(screen.queryByTestId('last-synced')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: "Can't sync: show details" }));
    expect(await screen.findByText("Can't sync: Request failed (500)")).toBeTruthy();
    expect(screen.getByText(/Last synced 03\/03\/2026 10:15\./)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('leaves an older error to the Offline badge while offline', () => {
    renderView({ lastSyncedAt: Date.now(), error: { message: 'Request failed (500)', at: Date.now() } }, false);
    expect(screen.queryByRole('button', { name: "Can't sync: show details" })).toBeNull();
    expect(screen.getByTestId('last-synced')).toBeTruthy();
  });

  it("the toolbar's status corner follows the error recorded in the replica", async () => {
    const db = new PortalDb(`test-${Math.random()}`);
    await db.open();
    try {
      render(
        <ChakraProvider value={system}>
          <ReplicaContext.Provider value={db}>
            <OfflineIndicator />
          </ReplicaContext.Provider>
        </ChakraProvider>,
      );
      await act(() => recordSyncError(db, 'Not allowed'));
      await waitFor(() => expect(screen.getByRole('button', { name: "Can't sync: show details" })).toBeTruthy());
      await act(() => db.meta.delete('syncError'));
      await waitFor(() => expect(screen.queryByRole('button', { name: "Can't sync: show details" })).toBeNull());
    } finally {
      db.close();
      await db.delete();
    }
  });
});
