import { Badge, Box, Card, Center, EmptyState, Heading, HStack, Link, Spinner, Stack, Text } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { useLiveQuery } from 'dexie-react-hooks';
import { SearchX } from 'lucide-react';
import { formatDate } from '../../../domain/format.ts';
import { texts } from '../../../domain/texts.ts';
import { useReplica } from '../../lib/replica.ts';

/** Earlier messages to support, newest first; ones still in the outbox are badged. */
export function ContactRequestsPage() {
  const db = useReplica();
  const rows = useLiveQuery(() => db.contactRequests.orderBy('createdAt').reverse().toArray(), [db]);

  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth="550px" width="100%">
      <Card.Header>
        <Heading as="h1" textStyle="h1">
          Contact Requests
        </Heading>
      </Card.Header>
      <Card.Body pt="2">
        {rows === undefined ? (
          <Center py="10">
            <Spinner color="brand.solid" aria-label="Loading contact requests" />
          </Center>
        ) : rows.length === 0 ? (
          <EmptyState.Root size="sm">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <SearchX size={22} />
              </EmptyState.Indicator>
              <EmptyState.Description color="fg">{texts.nothingFound}</EmptyState.Description>
              <Link asChild color="brand.fg" fontWeight="semibold">
                <RouterLink to="/contact-us">Contact Support</RouterLink>
              </Link>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
            {rows.map((row) => (
              <Box as="li" key={row.id} py="3" borderTopWidth="1px" borderColor="portal.border" data-testid="contact-request">
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
              </Box>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
