import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PortalDb } from '../../lib/db.ts';
import { withReplica } from '../../lib/test-kit.ts';
import { ReplicaContext } from '../../lib/replica.ts';
import { type SyncHealth, recordSyncError } from '../../lib/sync/health.ts';
import { createSyncEngine } from '../../lib/sync/engine.ts';
import { REJECTED_ROWS_KEY } from '../../lib/sync/pull.ts';
import { SENDER_ERROR_KEY } from '../../lib/sync/sender.ts';
import { STAFF_SYNC_ERROR_KEY } from '../../lib/sync/staff-pull.ts';
import { SyncEngineContext } from '../../lib/sync/use-sync-engine.ts';
import { OfflineIndicator } from './offline-indicator.tsx';
import { SyncHealthView, formatSyncedAt, syncProblems } from './sync-health.tsx';

const system = createSystem(defaultConfig);
const at = (iso: string) => new Date(iso).getTime();
const healthy: SyncHealth = { lastSyncedAt: null, error: null, staffError: null, senderError: null, rejectedRows: [] };

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
    // The view reads the clock again to tell today from another day: frozen, so a render that crossed
    // midnight cannot show a date, and the time is exact.
    vi.useFakeTimers({ toFake: ['Date'], now: at('2026-03-04T23:59:59.900') });
    try {
      renderView({ ...healthy, lastSyncedAt: Date.now() });
      expect(screen.getByTestId('last-synced').textContent).toBe('Last synced 23:59');
    } finally {
      vi.useRealTimers();
    }
  });

  it("shows Can't sync with the reason and a Retry that pulls again", async () => {
    const onRetry = renderView({ ...healthy, lastSyncedAt: at('2026-03-03T10:15:00'), error: { message: 'Request failed (500)', at: Date.now() } });
    expect(screen.queryByTestId('last-synced')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: "Can't sync: show details" }));
    expect(await screen.findByText("Can't sync: Request failed (500)")).toBeTruthy();
    expect(screen.getByText(/Last synced 03\/03\/2026 10:15\./)).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('leaves an older error to the Offline badge while offline', () => {
    renderView({ ...healthy, lastSyncedAt: Date.now(), error: { message: 'Request failed (500)', at: Date.now() } }, false);
    expect(screen.queryByRole('button', { name: "Can't sync: show details" })).toBeNull();
    expect(screen.getByTestId('last-synced')).toBeTruthy();
  });

  it('says in plain words that rows were set aside, and that Retry reads them again', async () => {
    const onRetry = renderView({ ...healthy, lastSyncedAt: Date.now(), rejectedRows: [{ table: 'requests', id: 'r1', reason: 'status: unknown value', at: 1 }] }, false);
    fireEvent.click(screen.getByRole('button', { name: "Can't sync: show details" }));
    expect(await screen.findByText('1 update from the server could not be read by this version of the app and was set aside. Retry reads it again.')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Retry' })));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it("shows the sender's error and the staff feed's error, the latter only online", async () => {
    const health = { ...healthy, senderError: { message: 'QuotaExceededError', at: 1 }, staffError: { message: 'Staff only', at: 1 } };
    expect(syncProblems(health, true)).toEqual(["Can't update the staff workspace: Staff only", "Can't send what is saved on this device: QuotaExceededError"]);
    expect(syncProblems(health, false)).toEqual(["Can't send what is saved on this device: QuotaExceededError"]);
    expect(syncProblems({ ...healthy, rejectedRows: [1, 2].map((n) => ({ table: 'requests', reason: 'x', at: n })) }, true)).toEqual([
      '2 updates from the server could not be read by this version of the app and were set aside. Retry reads them again.',
    ]);
  });

  describe('on a replica', () => {
    let db: PortalDb;
    withReplica((opened) => (db = opened));

    it("the toolbar's status corner follows the error recorded in the replica", async () => {
      render(
        <ChakraProvider value={system}>
          <ReplicaContext.Provider value={db}>
            <SyncEngineContext.Provider value={createSyncEngine(db)}>
              <OfflineIndicator />
            </SyncEngineContext.Provider>
          </ReplicaContext.Provider>
        </ChakraProvider>,
      );
      await act(() => recordSyncError(db, 'Not allowed'));
      await waitFor(() => expect(screen.getByRole('button', { name: "Can't sync: show details" })).toBeTruthy());
      await act(() => db.meta.delete('syncError'));
      await waitFor(() => expect(screen.queryByRole('button', { name: "Can't sync: show details" })).toBeNull());
    });

    it("the toolbar's status corner shows rows set aside, a sender error and a staff pull error as they are recorded", async () => {
      render(
        <ChakraProvider value={system}>
          <ReplicaContext.Provider value={db}>
            <SyncEngineContext.Provider value={createSyncEngine(db)}>
              <OfflineIndicator />
            </SyncEngineContext.Provider>
          </ReplicaContext.Provider>
        </ChakraProvider>,
      );
      const details = () => screen.queryByRole('button', { name: "Can't sync: show details" });
      for (const [key, value] of [
        [REJECTED_ROWS_KEY, [{ table: 'requests', id: 'r1', reason: 'unknown status', at: 1 }]],
        [SENDER_ERROR_KEY, { message: 'QuotaExceededError', at: 1 }],
        [STAFF_SYNC_ERROR_KEY, { message: 'Staff only', at: 1 }],
      ] as const) {
        await act(() => db.meta.put({ key, value }));
        await waitFor(() => expect(details()).toBeTruthy());
        await act(() => db.meta.delete(key));
        await waitFor(() => expect(details()).toBeNull());
      }
    });
  });
});
