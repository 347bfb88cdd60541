import { Box, Card, Center, EmptyState, Heading, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { BellOff } from 'lucide-react';
import { formatDate } from '../../../domain/format.ts';
import { texts } from '../../../domain/texts.ts';
import { useNotifications } from './use-notifications.ts';

/** Every notification the user has, newest first, straight from the replica. */
export function NotificationsPage() {
  const items = useNotifications();
  return (
    <Card.Root variant="elevated" bg="portal.white">
      <Card.Header>
        <Heading as="h1" textStyle="h1">
          Notifications
        </Heading>
      </Card.Header>
      <Card.Body pt="2">
        {items === undefined ? (
          <Center py="10">
            <Spinner color="brand.solid" aria-label="Loading notifications" />
          </Center>
        ) : items.length === 0 ? (
          <EmptyState.Root size="sm">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <BellOff size={22} />
              </EmptyState.Indicator>
              <EmptyState.Description color="fg">{texts.noNotifications}</EmptyState.Description>
              <Link asChild color="brand.fg" fontWeight="semibold">
                <RouterLink to="/contact-us">Contact Support</RouterLink>
              </Link>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
            {items.map((item) => (
              <Box as="li" key={item.id} py="3" borderTopWidth="1px" borderColor="portal.border" data-testid="notification-row">
                <Text fontWeight="medium" wordBreak="break-word" whiteSpace="pre-wrap">
                  {item.message}
                </Text>
                <Text fontSize="xs" color="fg.muted" mt="1">
                  {formatDate(item.createdAt)}
                </Text>
              </Box>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
