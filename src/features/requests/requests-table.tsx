import { Badge, Box, Card, HStack, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { formatDate, formatMoney } from '../../../domain/format.ts';
import { texts } from '../../../domain/texts.ts';
import type { LocalRequest } from '../../lib/db.ts';
import { useIsMobile } from '../../lib/ui-state.ts';
import { LiveDetailsDialog } from './live-details-dialog.tsx';
import { RefundDialog } from './refund-dialog.tsx';
import { RequestDetailsDialog } from './request-details-dialog.tsx';
import { type RowAction, RowActionsMenu } from './row-actions-menu.tsx';
import { StatusBadge } from './status-badge.tsx';
import { ToolIcon } from './tool-icon.tsx';
import { toolOf } from './use-requests.ts';

export interface RequestsTableProps {
  title: string;
  /** Undefined while the device replica answers. */
  requests: LocalRequest[] | undefined;
  emptyText?: string;
  showAmount?: boolean;
  /** Extra controls beside the title (the dashboard's refresh button). */
  actions?: ReactNode;
}

/** A requests table: tool, order date (hidden on phones), status, optional amount, actions. */
export function RequestsTable({ title, requests, emptyText = texts.nothingFound, showAmount = false, actions }: RequestsTableProps) {
  const isMobile = useIsMobile();
  const [open, setOpen] = useState<{ action: RowAction; request: LocalRequest } | null>(null);
  const close = () => setOpen(null);
  const pick = (action: RowAction) => (open?.action === action ? open.request : null);

  return (
    <Card.Root variant="outline" bg="portal.white" minWidth="0">
      <Card.Header px={{ base: '3', md: '6' }}>
        <HStack justify="space-between" gap="3">
          <Text as="h2" fontSize="1.125rem" fontWeight="semibold">
            {title}
          </Text>
          {actions}
        </HStack>
      </Card.Header>
      <Card.Body pt="3" px={{ base: '3', md: '6' }} minWidth="0">
        {requests === undefined ? (
          <Stack gap="2">
            <Skeleton height="10" />
            <Skeleton height="10" />
          </Stack>
        ) : requests.length === 0 ? (
          <Text color="fg.muted" py="4">
            {emptyText}
          </Text>
        ) : (
          <Table.ScrollArea maxWidth="100%" whiteSpace="normal">
            <Table.Root size={isMobile ? 'sm' : 'md'} aria-label={title} interactive>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>Tool</Table.ColumnHeader>
                  {!isMobile && <Table.ColumnHeader>Order Date</Table.ColumnHeader>}
                  <Table.ColumnHeader>Status</Table.ColumnHeader>
                  {showAmount && !isMobile && <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>}
                  <Table.ColumnHeader textAlign="end" width="1%">
                    <Box as="span" srOnly>
                      Actions
                    </Box>
                  </Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {requests.map((request) => {
                  const tool = toolOf(request);
                  return (
                    <Table.Row key={request.id} data-request-id={request.id} data-status={request.status}>
                      <Table.Cell>
                        <HStack gap="2" color="portal.text">
                          {tool && (
                            <Box color="brand.fg" flexShrink={0}>
                              <ToolIcon icon={tool.icon} />
                            </Box>
                          )}
                          <Text fontWeight="medium" lineHeight="short">
                            {tool?.header ?? request.productRequestType}
                          </Text>
                        </HStack>
                      </Table.Cell>
                      {!isMobile && <Table.Cell whiteSpace="nowrap">{formatDate(request.Created_Time)}</Table.Cell>}
                      <Table.Cell>
                        <HStack gap="2" wrap="wrap">
                          <StatusBadge status={request.status} />
                          {request.pending && (
                            <Badge colorPalette="yellow" variant="outline">
                              {texts.waitingToSend}
                            </Badge>
                          )}
                        </HStack>
                      </Table.Cell>
                      {showAmount && !isMobile && <Table.Cell textAlign="end">{formatMoney(request.totalAmount)}</Table.Cell>}
                      <Table.Cell textAlign="end">
                        <RowActionsMenu request={request} onAction={(action) => setOpen({ action, request })} />
                      </Table.Cell>
                    </Table.Row>
                  );
                })}
              </Table.Body>
            </Table.Root>
          </Table.ScrollArea>
        )}
      </Card.Body>
      <RequestDetailsDialog request={pick('details')} onClose={close} />
      <RefundDialog request={pick('refund')} onClose={close} />
      <LiveDetailsDialog request={pick('live')} onClose={close} />
    </Card.Root>
  );
}
