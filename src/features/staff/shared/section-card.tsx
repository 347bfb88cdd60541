import { Badge, Card, HStack, Heading, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface SectionCardProps {
  title: string;
  /** Shown beside the title for lists, so an empty section is visible without reading it. */
  count?: number;
  actions?: ReactNode;
  children: ReactNode;
}

/** One titled block of a client or request page; a region named by its heading, for screen readers and tests. */
export function SectionCard({ title, count, actions, children }: SectionCardProps) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <Card.Root as="section" variant="elevated" bg="portal.white" minWidth="0" aria-labelledby={id}>
      <Card.Header px={{ base: '4', md: '6' }}>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <HStack gap="2">
            <Heading as="h2" id={id} fontSize="1rem" fontWeight="semibold">
              {title}
            </Heading>
            {count !== undefined && (
              <Badge variant="subtle" colorPalette="gray" aria-hidden="true">
                {count}
              </Badge>
            )}
          </HStack>
          {actions}
        </HStack>
      </Card.Header>
      <Card.Body pt="3" px={{ base: '4', md: '6' }} minWidth="0">
        {children}
      </Card.Body>
    </Card.Root>
  );
}

export function EmptyText({ children }: { children: ReactNode }) {
  return (
    <Text color="fg.muted" py="1">
      {children}
    </Text>
  );
}
