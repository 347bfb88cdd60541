import { useState } from 'react';
import { Badge, Box, Button, Center, Float, Heading, HStack, IconButton, Popover, Portal, Spinner, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { Bell } from 'lucide-react';
import type { NotificationItem } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { NotificationDate } from './notification-date.tsx';
import { popupItemCount, seeAllThreshold, useNotifications, useShownAsRead, useUnreadCount } from './use-notifications.ts';
import { iconSize } from '../../../components/theme-tokens.ts';

/**
 * The toolbar bell; the list lives in Dexie, which the sync feed refreshes on every poke. The badge counts the
 * unread ones; opening the popup marks what it shows as read (docs/decisions/014-notification-read-state.md).
 */
export function NotificationsPopover() {
  const items = useNotifications();
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  const count = useUnreadCount(items) ?? 0;

  return (
    <Popover.Root open={open} onOpenChange={(e) => setOpen(e.open)} positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit>
      <Popover.Trigger asChild>
        <IconButton aria-label="Notifications" variant="ghost" color="portal.nav" borderRadius="full" size="md" position="relative">
          <Bell size={iconSize} />
          {count > 0 && (
            <Float placement="top-end" offset="2">
              <Badge data-testid="notifications-badge" title={`${count} unread`} colorPalette="brand" variant="solid" borderRadius="full" size="xs" minWidth="4" justifyContent="center">
                {count > 99 ? '99+' : count}
              </Badge>
            </Float>
          )}
        </IconButton>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          {/* 360px per spec, but never wider than a phone screen minus a margin. */}
          <Popover.Content width="360px" maxWidth="calc(100vw - 16px)" data-testid="notifications-popup">
            <Popover.Body p="4">
              <OpenPopup
                items={items}
                onSeeAll={() => {
                  setOpen(false);
                  void navigate({ to: '/notifications' });
                }}
              />
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}

/** Mounted while the popup is open (lazyMount, unmountOnExit): what it shows is marked read as it opens. */
function OpenPopup({ items, onSeeAll }: { items: NotificationItem[] | undefined; onSeeAll(): void }) {
  const isNew = useShownAsRead(items);
  return <PopupBody items={items} onSeeAll={onSeeAll} isNew={isNew} />;
}

export function PopupBody({ items, onSeeAll, isNew = () => false }: { items: NotificationItem[] | undefined; onSeeAll(): void; isNew?(item: NotificationItem): boolean }) {
  if (items === undefined) {
    return (
      <Center py="6">
        <Spinner color="brand.solid" aria-label="Loading notifications" />
      </Center>
    );
  }
  if (items.length === 0) {
    return (
      <Text py="4" textAlign="center" color="fg.muted">
        {texts.noNotifications}
      </Text>
    );
  }
  return (
    <Stack gap="3">
      <HStack justify="space-between">
        <Heading as="h2" fontSize="md" fontWeight="semibold">
          Notifications
        </Heading>
        <Badge colorPalette="brand" variant="solid" borderRadius="full" aria-label={`${items.length} notifications`} data-testid="notifications-total">
          {items.length}
        </Badge>
      </HStack>
      <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
        {items.slice(0, popupItemCount).map((item) => (
          <Box as="li" key={item.id} py="2.5" borderTopWidth="1px" borderColor="portal.border" data-testid="notification-item">
            <Text fontWeight="medium" wordBreak="break-word" lineClamp={3}>
              {item.message}
            </Text>
            <NotificationDate item={item} isNew={isNew(item)} />
          </Box>
        ))}
      </Stack>
      {items.length > seeAllThreshold && (
        <Button colorPalette="brand" variant="outline" width="full" onClick={onSeeAll}>
          See all notifications
        </Button>
      )}
    </Stack>
  );
}
