import { Box, Card, HStack, SimpleGrid, Skeleton, Text } from '@chakra-ui/react';
import { CircleCheck, Clock, Hourglass, type LucideIcon, Wallet } from 'lucide-react';
import type { StatusCounts } from '../../../../domain/schemas.ts';
import { iconSize } from '../../../components/theme-tokens.ts';

const cards: { key: keyof StatusCounts; label: string; icon: LucideIcon; palette: string; hint?: string }[] = [
  { key: 'done', label: 'Done', icon: CircleCheck, palette: 'green' },
  { key: 'inProgress', label: 'In Progress', icon: Clock, palette: 'blue' },
  { key: 'pending', label: 'Pending', icon: Hourglass, palette: 'gray' },
  // The spec's card word; its requests carry the badge "Awaiting Payment", which the hint names so the two meet.
  { key: 'waitingForActions', label: 'Awaiting Action', icon: Wallet, palette: 'orange', hint: 'Requests Awaiting Payment' },
];

/** The four status cards, counted from the device's requests. */
export function StatusCards({ counts }: { counts: StatusCounts | undefined }) {
  return (
    <SimpleGrid columns={{ base: 2, md: 4 }} gap={{ base: '3', md: '4' }}>
      {cards.map(({ key, label, icon: Icon, palette, hint }) => (
        <Card.Root key={key} variant="outline" bg="portal.white" role="group" aria-label={label} data-testid={`status-${key}`}>
          <Card.Body p={{ base: '3', md: '5' }}>
            <HStack gap="3" align="center">
              <Box
                colorPalette={palette}
                bg="colorPalette.subtle"
                color="colorPalette.fg"
                rounded="l2"
                p="2"
                display="flex"
                flexShrink={0}
              >
                <Icon size={iconSize} aria-hidden="true" />
              </Box>
              <Box minWidth="0">
                <Text fontSize="sm" color="fg.muted" lineHeight="short">
                  {label}
                </Text>
                {counts === undefined ? (
                  <Skeleton height="6" width="8" />
                ) : (
                  <Text fontSize="xl" fontWeight="bold" data-testid="status-count">
                    {counts[key]}
                  </Text>
                )}
                {hint && (
                  <Text fontSize="xs" color="fg.muted" lineHeight="short" data-testid="status-hint">
                    {hint}
                  </Text>
                )}
              </Box>
            </HStack>
          </Card.Body>
        </Card.Root>
      ))}
    </SimpleGrid>
  );
}
