import { Text } from '@chakra-ui/react';
import { BellOff } from 'lucide-react';
import { texts } from '../../../../domain/texts.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { ContactSupportLink } from '../shared/contact-support-link.tsx';
import { NotificationDate } from './notification-date.tsx';
import { useNotifications, useShownAsRead } from './use-notifications.ts';
import { iconSize } from '../../../components/theme-tokens.ts';

/** Every notification the user has, newest first, straight from the replica; opening the page marks them read. */
export function NotificationsPage() {
  const items = useNotifications();
  const isNew = useShownAsRead(items);
  return (
    <ListCard
      title="Notifications"
      items={items}
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
          <NotificationDate item={item} isNew={isNew(item)} />
        </>
      )}
    />
  );
}
