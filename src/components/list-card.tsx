import { Box, Card, Center, EmptyState, HStack, Heading, Spinner, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';

export interface ListCardProps<T extends { id: string }> {
  title: string;
  /** Undefined while the replica answers (a spinner), then the rows. */
  items: T[] | undefined;
  loadingLabel: string;
  /** The empty state: an icon, a text and, optionally, a link. */
  empty: { icon: ReactNode; text: string; action?: ReactNode };
  renderItem(item: T): ReactNode;
  /** Controls beside the title. */
  actions?: ReactNode;
  maxWidth?: string;
  itemTestId?: string;
}

/** A titled card listing rows from the device replica, with its loading and empty states. */
export function ListCard<T extends { id: string }>({ title, items, loadingLabel, empty, renderItem, actions, maxWidth, itemTestId }: ListCardProps<T>) {
  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth={maxWidth} width={maxWidth ? '100%' : undefined}>
      <Card.Header>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Heading as="h1" textStyle="h1">
            {title}
          </Heading>
          {actions}
        </HStack>
      </Card.Header>
      <Card.Body pt="2">
        {items === undefined ? (
          <Center py="10">
            <Spinner color="brand.solid" aria-label={loadingLabel} />
          </Center>
        ) : items.length === 0 ? (
          <EmptyState.Root size="sm">
            <EmptyState.Content>
              <EmptyState.Indicator>{empty.icon}</EmptyState.Indicator>
              <EmptyState.Description color="fg">{empty.text}</EmptyState.Description>
              {empty.action}
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
            {items.map((item) => (
              <Box as="li" key={item.id} py="3" borderTopWidth="1px" borderColor="portal.border" data-testid={itemTestId}>
                {renderItem(item)}
              </Box>
            ))}
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}
