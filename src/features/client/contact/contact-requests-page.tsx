import { Badge, HStack, Text } from '@chakra-ui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { SearchX } from 'lucide-react';
import { formatDate } from '../../../../domain/format.ts';
import { texts } from '../../../../domain/texts.ts';
import { ListCard } from '../../../components/list-card.tsx';
import { useReplica } from '../../../lib/replica.ts';
import { ContactSupportLink } from '../shared/contact-support-link.tsx';
import { iconSize } from '../../../components/theme-tokens.ts';

/** Earlier messages to support, newest first; ones still in the outbox are badged. */
export function ContactRequestsPage() {
  const db = useReplica();
  const rows = useLiveQuery(() => db.contactRequests.orderBy('createdAt').reverse().toArray(), [db]);
  return (
    <ListCard
      title="Contact Requests"
      items={rows}
      loadingLabel="Loading contact requests"
      maxWidth="550px"
      itemTestId="contact-request"
      empty={{
        icon: <SearchX size={iconSize} />,
        text: texts.nothingFound,
        action: <ContactSupportLink />,
      }}
      renderItem={(row) => (
        <>
          <HStack justify="space-between" align="start" gap="3">
            <Text fontWeight="semibold" wordBreak="break-word">
              {row.subject}
            </Text>
            <Text fontSize="xs" color="fg.muted" flexShrink={0} mt="0.5">
              {formatDate(row.createdAt)}
            </Text>
          </HStack>
          {row.pending && (
            <Badge colorPalette="orange" variant="subtle" mt="1">
              {texts.waitingToSend}
            </Badge>
          )}
          <Text mt="1" color="fg" whiteSpace="pre-wrap" wordBreak="break-word">
            {row.message}
          </Text>
        </>
      )}
    />
  );
}
