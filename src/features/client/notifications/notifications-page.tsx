import { Text } from '@chakra-ui/react';
import { BellOff } from 'lucide-react';
import { formatDate } from '../../../../domain/format.ts';
import { texts } from '../../../../domain/texts.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { ContactSupportLink } from '../shared/contact-support-link.tsx';
import { useNotifications } from './use-notifications.ts';
import { iconSize } from '../../../components/theme-tokens.ts';

/** Every notification the user has, newest first, straight from the replica. */
export function NotificationsPage() {
  return (
    <ListCard
      title="Notifications"
      items={useNotifications()}
      loadingLabel="Loading notifications"
      itemTestId="notification-row"
      empty={{
        icon: <BellOff size={iconSize} />,
        text: texts.noNotifications,
        action: <ContactSupportLink />,
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
