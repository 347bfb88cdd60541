import { Badge, Box, Button, Card, HStack, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { type ReactNode, type RefObject, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Landmark } from 'lucide-react';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import { texts } from '../../../../domain/texts.ts';
import { requestRef, requestSummary, type ToolDefinition } from '../../../../domain/tools.ts';
import { RequestStatusBadge } from '../../../components/request-status-badge.tsx';
import { iconSize } from '../../../components/theme-tokens.ts';
import { ToolIcon } from '../../../components/tool-icon.tsx';
import type { LocalRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { useIsMobile, useMessages, useNewRequestAt } from '../../../lib/ui-state.ts';
import { HowToPayDialog } from './how-to-pay-dialog.tsx';
import { needsPayment } from './how-to-pay.ts';
import { LiveDetailsDialog } from './live-details-dialog.tsx';
import { RefundBadge } from './refund-badge.tsx';
import { RefundDialog } from './refund-dialog.tsx';
import { RequestDetailsDialog } from './request-details-dialog.tsx';
import { type RowAction, RowActionsMenu } from './row-actions-menu.tsx';
import { useLatestRefunds } from './use-refunds.ts';
import { PAGE_SIZE, toolOf, useRequestPage } from './use-requests.ts';

export interface RequestsTableProps {
  title: string;
  /** Narrows the table to one tool's requests. */
  tool?: ToolDefinition;
  emptyText?: string;
  showAmount?: boolean;
  /** Extra controls beside the title (the dashboard's refresh button). */
  actions?: ReactNode;
  /** A request whose details open as soon as the device has it (a notification's link), whichever page of the table it is on. */
  openRequestId?: string;
  /** The linked request's details were closed. */
  onLinkedRequestClosed?(): void;
}

/** A requests table: tool and reference, order date (hidden on phones), status, optional amount, actions. */
export function RequestsTable({ title, tool: only, emptyText = texts.nothingFound, showAmount = false, actions, openRequestId, onLinkedRequestClosed }: RequestsTableProps) {
  const isMobile = useIsMobile();
  const [page, setPage] = useState(0);
  const data = useRequestPage(only, page);
  const requests = data?.rows;
  const refunds = useLatestRefunds(requests?.map((r) => r.id));
  const newestRow = useRevealNewest(requests, page);
  const [open, setOpen] = useState<{ action: RowAction; request: LocalRequest } | null>(null);
  // Stable: the How to pay dialog closes itself (an effect) when the payment is recorded.
  const close = useCallback(() => setOpen(null), []);
  useLinkedRequest(openRequestId, (request) => setOpen({ action: 'details', request }));
  const closeDetails = () => {
    if (openRequestId !== undefined && open?.request.id === openRequestId) onLinkedRequestClosed?.();
    close();
  };
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
                {requests.map((request, index) => {
                  const tool = toolOf(request);
                  const refund = refunds.get(request.id);
                  return (
                    <Table.Row key={request.id} ref={index === 0 ? newestRow : undefined} data-request-id={request.id} data-status={request.status}>
                      <Table.Cell>
                        <RequestName request={request} tool={tool} detailed={isMobile} />
                      </Table.Cell>
                      {!isMobile && <Table.Cell whiteSpace="nowrap">{formatDate(request.Created_Time)}</Table.Cell>}
                      <Table.Cell>
                        <HStack gap="2" wrap="wrap">
                          <RequestStatusBadge status={request.status} />
                          {refund && <RefundBadge status={refund.status} pending={refund.pending === true} />}
                          {request.pending && (
                            <Badge colorPalette="yellow" variant="outline">
                              {texts.waitingToSend}
                            </Badge>
                          )}
                          {needsPayment(request) && <HowToPayButton request={request} onOpen={() => setOpen({ action: 'pay', request })} />}
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
        {data && data.total > PAGE_SIZE && <Pager page={page} total={data.total} onPage={setPage} />}
      </Card.Body>
      <RequestDetailsDialog request={pick('details')} onClose={closeDetails} onHowToPay={(request) => setOpen({ action: 'pay', request })} />
      <HowToPayDialog request={pick('pay')} onClose={close} />
      <RefundDialog request={pick('refund')} onClose={close} />
      <LiveDetailsDialog request={pick('live')} onClose={close} />
    </Card.Root>
  );
}

/**
 * Opens the linked request's details once per link, when the replica has the row (a push may open the app before
 * the pull that brings it). The link leaves the address when its details close, so a later link to the same
 * request opens them again.
 */
function useLinkedRequest(id: string | undefined, openDetails: (request: LocalRequest) => void): void {
  const db = useReplica();
  const request = useLiveQuery(() => (id ? db.requests.get(id) : undefined), [db, id]);
  const handled = useRef<string | null>(null);
  useEffect(() => {
    if (id === undefined) handled.current = null;
  }, [id]);
  useEffect(() => {
    if (!request || handled.current === request.id) return;
    handled.current = request.id;
    openDetails(request);
  }, [request, openDetails]);
}

/** On an Awaiting Payment row: the way to the payment details, named by the request for screen readers. */
function HowToPayButton({ request, onOpen }: { request: LocalRequest; onOpen(): void }) {
  const ref = requestRef(request);
  return (
    <Button size="xs" variant="outline" colorPalette="brand" onClick={onOpen} aria-label={ref ? `How to pay ${ref}` : 'How to pay'}>
      <Landmark size={iconSize - 6} aria-hidden />
      How to pay
    </Button>
  );
}

/** How long after an order a table that appears (the dashboard's, after the redirect) still reveals its newest row. */
const revealWindowMs = 10_000;

/**
 * After an order (ui-state's revealNewRequest) the newest row, the one just ordered, is scrolled into view as soon
 * as it is there, and again when a message comes or goes: the page's scroll padding then keeps it above the bar
 * (the bar sets that padding before this runs, app/provider.tsx).
 */
function useRevealNewest(rows: readonly LocalRequest[] | undefined, page: number): RefObject<HTMLTableRowElement | null> {
  const newRequestAt = useNewRequestAt();
  const messageKey = useMessages()[0]?.key ?? '';
  const newest = useRef<HTMLTableRowElement>(null);
  const revealed = useRef('');
  // Before paint, so the row is never drawn under the bar first.
  useLayoutEffect(() => {
    if (newRequestAt === null || page !== 0 || !rows?.length || !newest.current) return;
    if (Date.now() - newRequestAt > revealWindowMs) return;
    const occasion = `${newRequestAt}:${messageKey}`;
    if (revealed.current === occasion) return;
    revealed.current = occasion;
    newest.current.scrollIntoView({ block: 'nearest' });
  }, [newRequestAt, messageKey, rows, page]);
  return newest;
}

/**
 * The row's first cell: the tool and the request's reference (TM-0042) on one line; on phones, where the
 * date column is hidden, a second line with the request's key detail (amount lost, website, network…),
 * so rows of one tool can be told apart.
 */
function RequestName({ request, tool, detailed }: { request: LocalRequest; tool: ToolDefinition | undefined; detailed: boolean }) {
  const ref = requestRef(request);
  const summary = detailed ? requestSummary(request) : null;
  return (
    <HStack gap="2" color="portal.text" align={summary ? 'flex-start' : 'center'}>
      {tool && (
        <Box color="brand.fg" flexShrink={0}>
          <ToolIcon icon={tool.icon} />
        </Box>
      )}
      <Box minWidth="0">
        <HStack gap="2" wrap="wrap" rowGap="0">
          <Text fontWeight="medium" lineHeight="short">
            {tool?.header ?? request.productRequestType}
          </Text>
          {ref && (
            <Text as="span" fontSize="sm" fontFamily="mono" whiteSpace="nowrap" lineHeight="short" data-testid="request-ref">
              {ref}
            </Text>
          )}
        </HStack>
        {summary && (
          <Text fontSize="sm" lineHeight="short" mt="1" lineClamp={3} overflowWrap="anywhere" data-testid="request-summary">
            {summary}
          </Text>
        )}
      </Box>
    </HStack>
  );
}

/** Previous / next through pages of PAGE_SIZE rows, with the range shown. */
function Pager({ page, total, onPage }: { page: number; total: number; onPage(page: number): void }) {
  const last = Math.ceil(total / PAGE_SIZE) - 1;
  const from = page * PAGE_SIZE + 1;
  const to = Math.min(total, (page + 1) * PAGE_SIZE);
  return (
    <HStack justify="space-between" pt="3" gap="3" as="nav" aria-label="Pages">
      <Text color="fg.muted" fontSize="sm">
        {from}–{to} of {total.toLocaleString('en-US')}
      </Text>
      <HStack gap="2">
        <Button size="sm" variant="outline" disabled={page === 0} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button size="sm" variant="outline" disabled={page >= last} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </HStack>
    </HStack>
  );
}
