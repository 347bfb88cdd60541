import { Badge, HStack, Text } from '@chakra-ui/react';
import { formatDate } from '../../../../domain/format.ts';
import type { NotificationItem } from '../../../../domain/schemas.ts';

/** A notification's date (DD/MM/YYYY), with "New" on one that was unread when the list opened. */
export function NotificationDate({ item, isNew }: { item: NotificationItem; isNew: boolean }) {
  return (
    <HStack gap="2" mt="1">
      <Text fontSize="xs" color="fg.muted">
        {formatDate(item.createdAt)}
      </Text>
      {isNew && (
        <Badge size="xs" colorPalette="brand" variant="subtle" data-testid="notification-new">
          New
        </Badge>
      )}
    </HStack>
  );
}
