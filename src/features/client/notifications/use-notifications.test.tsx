import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PortalDb } from '../../../lib/db.ts';
import { notificationRow, withReplica } from '../../../lib/test-kit.ts';
import { ReplicaContext } from '../../../lib/replica.ts';
import { useNotifications, useShownAsRead, useUnreadCount } from './use-notifications.ts';

const UID = 'bell-user';
const at = (day: number) => new Date(Date.UTC(2026, 0, day, 12)).toISOString();

/** The bell's badge, and the list as the open popup shows it (mounted only while open, as the popup's content is). */
function Bell() {
  const items = useNotifications();
  const unread = useUnreadCount(items);
  const [open, setOpen] = useState(false);
  return (
    <>
      <output aria-label="badge">{unread === undefined ? 'loading' : String(unread)}</output>
      <button onClick={() => setOpen(!open)}>bell</button>
      {open && <List items={items} />}
    </>
  );
}

function List({ items }: { items: ReturnType<typeof useNotifications> }) {
  const isNew = useShownAsRead(items);
  return (
    <ul>
      {items?.map((item) => (
        <li key={item.id}>
          {item.message}
          {isNew(item) ? ' New' : ''}
        </li>
      ))}
    </ul>
  );
}

describe('the bell counts unread only and opening it marks what it shows', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened), () => UID);
  beforeEach(async () => {
    await db.notifications.bulkPut([notificationRow(1), notificationRow(2), notificationRow(3), notificationRow(4)]);
    await db.notificationReads.put({ userId: UID, readUpTo: at(1), updatedAt: at(1) });
  });
  afterEach(async () => {
    cleanup();
    // Live queries answer once more after unmounting: let them finish before the database goes. A fixed
    // window, because an unmounted component's last live-query read shows nowhere a test could watch.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });

  it('goes from 3 to 0 on opening, queues one command, and keeps the three labelled New while open', async () => {
    render(
      <ReplicaContext.Provider value={db}>
        <Bell />
      </ReplicaContext.Provider>,
    );
    await waitFor(() => expect(screen.getByLabelText('badge').textContent).toBe('3'));
    expect(await db.outbox.count()).toBe(0);

    screen.getByRole('button', { name: 'bell' }).click();
    await waitFor(() => expect(screen.getByLabelText('badge').textContent).toBe('0'));
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['#4 New', '#3 New', '#2 New', '#1']);
    const commands = await db.outbox.toArray();
    expect(commands.map((c) => [c.kind, c.json])).toEqual([['notificationsRead', { notificationId: notificationRow(4).id }]]);

    // Closed and opened again with nothing new: nothing is New, nothing more is queued.
    screen.getByRole('button', { name: 'bell' }).click();
    screen.getByRole('button', { name: 'bell' }).click();
    await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(4));
    expect(screen.queryByText(/New/)).toBeNull();
    expect(await db.outbox.count()).toBe(1);

    // One arriving while it is closed raises the badge again.
    screen.getByRole('button', { name: 'bell' }).click();
    await db.notifications.put(notificationRow(5));
    await waitFor(() => expect(screen.getByLabelText('badge').textContent).toBe('1'));
  });
});
