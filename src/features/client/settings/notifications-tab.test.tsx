import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Profile } from '../../../../domain/schemas.ts';
import { PortalDb } from '../../../lib/db.ts';
import { ReplicaContext } from '../../../lib/replica.ts';
import { withReplica } from '../../../lib/test-kit.ts';
import { NotificationsTab, pushBlockedText } from './notifications-tab.tsx';

const UID = 'tab-user';
let db: PortalDb;
withReplica((opened) => (db = opened), () => UID);
afterEach(cleanup);

const profile = (roles: Partial<Profile> = {}): Profile => ({
  uid: UID,
  email: 'a@b.test',
  firstName: null,
  lastName: null,
  isClient: true,
  isAdmin: false,
  isStaff: false,
  filledInitialForm: true,
  initialForm: null,
  activityStatus: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00.000Z',
  ...roles,
});

function renderTab() {
  render(
    <ChakraProvider value={defaultSystem}>
      <ReplicaContext.Provider value={db}>
        <NotificationsTab />
      </ReplicaContext.Provider>
    </ChakraProvider>,
  );
}

const switchNamed = (name: string) => screen.getByRole('checkbox', { name }) as HTMLInputElement;

describe('Settings → Notifications', () => {
  it("makes the spec's two switches real: turning one queues only it and shows at once", async () => {
    await db.profile.put(profile());
    renderTab();
    await waitFor(() => expect(switchNamed('General Updates').checked).toBe(true));
    expect(switchNamed('Personal Updates').disabled).toBe(false);
    fireEvent.click(switchNamed('General Updates'));
    await waitFor(() => expect(switchNamed('General Updates').checked).toBe(false));
    const commands = await db.outbox.toArray();
    expect(commands.map((c) => [c.kind, c.json])).toEqual([['notificationPreferences', { generalUpdates: false }]]);
    // A client has no staff alerts; the lock screen stays neutral by default.
    expect(screen.queryByRole('checkbox', { name: 'New leads' })).toBeNull();
    expect(switchNamed('Show details on the lock screen').checked).toBe(false);
  });

  it('shows the staff alerts to staff', async () => {
    await db.profile.put(profile({ isStaff: true }));
    renderTab();
    for (const name of ['New leads', 'New requests to price', 'Client messages', 'Refund requests']) {
      await waitFor(() => expect(switchNamed(name).checked).toBe(true));
    }
  });

  it('says why push on this device cannot be turned on where the browser has no Push API, instead of a dead switch', async () => {
    await db.profile.put(profile());
    renderTab();
    const note = await screen.findByTestId('switch-note');
    expect(note.textContent).toBe(pushBlockedText('unsupported'));
    expect(switchNamed('Notify me on this device').disabled).toBe(true);
    expect(pushBlockedText('denied')).toBe('Notifications are blocked for this site in your browser settings.');
    expect(pushBlockedText('default')).toBeNull();
  });
});
