import { Link, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { BellOff } from 'lucide-react';
import { formatDate } from '../../../domain/format.ts';
import { texts } from '../../../domain/texts.ts';
import { ListCard } from '../../components/list-card.tsx';
import { useNotifications } from './use-notifications.ts';

/** Every notification the user has, newest first, straight from the replica. */
export function NotificationsPage() {
  return (
    <ListCard
      title="Notifications"
      items={useNotifications()}
      loadingLabel="Loading notifications"
      itemTestId="notification-row"
      empty={{
        icon: <BellOff size={22} />,
        text: texts.noNotifications,
        action: (
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink to="/contact-us">Contact Support</RouterLink>
          </Link>
        ),
      }}
      renderItem={(item) => (
        <>
          <Text fontWeight="medium" wordBreak="break-word" whiteSpace="pre-wrap">
            {item.message}
          </Text>
          <Text fontSize="xs" color="fg.muted" mt="1">
            {formatDate(item.createdAt)}
          </Text>
        </>
      )}
    />
  );
}
