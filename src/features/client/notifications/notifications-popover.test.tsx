import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NotificationItem } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { PopupBody } from './notifications-popover.tsx';

const system = createSystem(defaultConfig);

function make(n: number): NotificationItem[] {
  // Newest first, as the hook returns them.
  return Array.from({ length: n }, (_, i) => ({
    id: `n${i}`,
    message: `Message ${i + 1}`,
    createdAt: new Date(Date.UTC(2026, 0, 20 - i, 12)).toISOString(),
    userId: null,
  }));
}

function renderBody(items: NotificationItem[] | undefined, onSeeAll = vi.fn(), isNew?: (item: NotificationItem) => boolean) {
  render(
    <ChakraProvider value={system}>
      <PopupBody items={items} onSeeAll={onSeeAll} isNew={isNew} />
    </ChakraProvider>,
  );
  return onSeeAll;
}

afterEach(cleanup);

describe('notifications popup body', () => {
  it('shows a spinner while the replica answers', () => {
    renderBody(undefined);
    expect(screen.getByLabelText('Loading notifications')).toBeTruthy();
  });

  it('shows the empty text with no notifications', () => {
    renderBody([]);
    expect(screen.getByText(texts.noNotifications)).toBeTruthy();
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('lists up to four with the total and DD/MM/YYYY dates, no See all at 3 or 5', () => {
    renderBody(make(3));
    expect(screen.getByRole('heading', { name: 'Notifications' })).toBeTruthy();
    expect(screen.getByLabelText('3 notifications').textContent).toBe('3');
    expect(screen.getAllByTestId('notification-item')).toHaveLength(3);
    expect(screen.getByText('20/01/2026')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'See all notifications' })).toBeNull();
    cleanup();
    renderBody(make(5));
    expect(screen.getAllByTestId('notification-item')).toHaveLength(4);
    expect(screen.queryByRole('button', { name: 'See all notifications' })).toBeNull();
  });

  it('offers See all past five', () => {
    const onSeeAll = renderBody(make(7));
    expect(screen.getAllByTestId('notification-item')).toHaveLength(4);
    expect(screen.getByText('Message 1')).toBeTruthy();
    expect(screen.queryByText('Message 5')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'See all notifications' }));
    expect(onSeeAll).toHaveBeenCalledOnce();
  });

  it('labels New only the items that were unread when it opened, and keeps the total in the heading', () => {
    const items = make(3);
    renderBody(items, vi.fn(), (item) => item.id === 'n0');
    expect(screen.getByLabelText('3 notifications').textContent).toBe('3');
    const rows = screen.getAllByTestId('notification-item');
    expect(rows.map((row) => row.querySelector('[data-testid="notification-new"]') !== null)).toEqual([true, false, false]);
    cleanup();
    renderBody(items);
    expect(screen.queryAllByTestId('notification-new')).toHaveLength(0);
  });
});
