import { Box, List, Stack, Text } from '@chakra-ui/react';
import type { AuditEntry } from '../../../../domain/staff.ts';
import { describeAudit } from './audit-text.ts';
import { formatDateTime } from '../../../../domain/format.ts';
import { EmptyText } from './section-card.tsx';

/** The audit history, newest first: when, who, what, and the main fields before → after. */
export function HistoryList({ entries }: { entries: AuditEntry[] }) {
  if (entries.length === 0) return <EmptyText>Nothing has been done here yet.</EmptyText>;
  // The server sends the log oldest first (append order); people read the latest first.
  const newestFirst = [...entries].reverse();
  return (
    <Stack as="ol" gap="0" listStyleType="none" m="0" p="0" aria-label="History">
      {newestFirst.map((entry) => {
        const { summary, changes } = describeAudit(entry);
        return (
          <Box as="li" key={entry.id} py="3" borderTopWidth="1px" borderColor="portal.border" _first={{ borderTopWidth: 0, pt: 0 }} data-testid="history-entry">
            <Text>
              <Text as="span" fontWeight="medium">
                {summary}
              </Text>{' '}
              <Text as="span" color="fg.muted" fontSize="xs">
                — {entry.actor.email}, {formatDateTime(entry.at)}
              </Text>
            </Text>
            {changes.length > 0 && (
              <List.Root ps="5" mt="1" fontSize="sm" color="fg.muted">
                {changes.map((line) => (
                  <List.Item key={line} wordBreak="break-word">
                    {line}
                  </List.Item>
                ))}
              </List.Root>
            )}
          </Box>
        );
      })}
    </Stack>
  );
}
