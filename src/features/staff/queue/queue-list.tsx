import { Badge, Box, HStack, Link as ChakraLink, Stack, Table, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { refundTypeLabel } from '../../../../domain/enums.ts';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import type { QueueItem } from '../../../../domain/staff.ts';
import { toolByBackendName } from '../../../../domain/tools.ts';
import { RequestStatusBadge } from '../../../components/request-status-badge.tsx';
import { ToolIcon } from '../../../components/tool-icon.tsx';
import { useIsMobile } from '../../../lib/ui-state.ts';
import { formatDateTime } from '../shared/format.ts';
import { ClientLink, ThreadLink } from '../shared/links.tsx';

type Lead = Extract<QueueItem, { kind: 'lead' }>;
type QueueRequest = Extract<QueueItem, { kind: 'request' }>;
type QueueThread = Extract<QueueItem, { kind: 'thread' }>;
type QueueRefund = Extract<QueueItem, { kind: 'refund' }>;

function FormBadge({ filled }: { filled: boolean }) {
  return (
    <Badge colorPalette={filled ? 'green' : 'gray'} variant="subtle">
      {filled ? 'Filled' : 'Not filled'}
    </Badge>
  );
}

function ToolName({ type }: { type: string }) {
  const tool = toolByBackendName(type);
  return (
    <HStack gap="2">
      {tool && (
        <Box color="brand.fg" flexShrink={0}>
          <ToolIcon icon={tool.icon} />
        </Box>
      )}
      <Text fontWeight="medium" lineHeight="short">
        {tool?.header ?? type}
      </Text>
    </HStack>
  );
}

function OpenRequest({ id }: { id: string }) {
  return (
    <ChakraLink asChild color="brand.fg" fontWeight="semibold">
      <Link to="/staff/requests/$requestId" params={{ requestId: id }}>
        Open
      </Link>
    </ChakraLink>
  );
}

function OpenClient({ uid }: { uid: string }) {
  return (
    <ClientLink uid={uid} fontWeight="semibold">
      Open
    </ClientLink>
  );
}

/** Leads waiting for approval: who, when they signed up, whether the initial form is in. */
export function LeadsList({ leads, label }: { leads: Lead[]; label: string }) {
  const isMobile = useIsMobile();
  if (isMobile) {
    return (
      <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={label}>
        {leads.map((lead) => (
          <Box as="li" key={lead.uid} py="3" borderTopWidth="1px" borderColor="portal.border" data-testid="queue-row" data-uid={lead.uid}>
            <HStack justify="space-between" align="start" gap="3">
              <Stack gap="1" minWidth="0">
                <ClientLink uid={lead.uid}>{lead.name || lead.email}</ClientLink>
                <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
                  {lead.email}
                </Text>
                <HStack gap="2" wrap="wrap">
                  <Text fontSize="xs" color="fg.muted">
                    Signed up {formatDate(lead.createdAt)}
                  </Text>
                  <FormBadge filled={lead.filledInitialForm} />
                </HStack>
              </Stack>
              <OpenClient uid={lead.uid} />
            </HStack>
          </Box>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollArea maxWidth="100%">
      <Table.Root size="md" aria-label={label} interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Name</Table.ColumnHeader>
            <Table.ColumnHeader>Email</Table.ColumnHeader>
            <Table.ColumnHeader>Signed up</Table.ColumnHeader>
            <Table.ColumnHeader>Initial form</Table.ColumnHeader>
            <Table.ColumnHeader width="1%">
              <Box as="span" srOnly>
                Link
              </Box>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {leads.map((lead) => (
            <Table.Row key={lead.uid} data-testid="queue-row" data-uid={lead.uid}>
              <Table.Cell>
                <ClientLink uid={lead.uid}>{lead.name || lead.email}</ClientLink>
              </Table.Cell>
              <Table.Cell wordBreak="break-all">{lead.email}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDate(lead.createdAt)}</Table.Cell>
              <Table.Cell>
                <FormBadge filled={lead.filledInitialForm} />
              </Table.Cell>
              <Table.Cell textAlign="end">
                <OpenClient uid={lead.uid} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** Requests of one status, oldest first: what was ordered, by whom, and where the money stands. */
export function RequestsList({ requests, label }: { requests: QueueRequest[]; label: string }) {
  const isMobile = useIsMobile();
  if (isMobile) {
    return (
      <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={label}>
        {requests.map((r) => (
          <Box as="li" key={r.id} py="3" borderTopWidth="1px" borderColor="portal.border" data-testid="queue-row" data-request-id={r.id} data-status={r.status}>
            <HStack justify="space-between" align="start" gap="3">
              <Stack gap="1" minWidth="0">
                <ToolName type={r.productRequestType} />
                <ClientLink uid={r.client.uid} wordBreak="break-all">
                  {r.client.name || r.client.email}
                </ClientLink>
                {r.client.name && (
                  <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
                    {r.client.email}
                  </Text>
                )}
                <HStack gap="2" wrap="wrap">
                  <RequestStatusBadge status={r.status} />
                  <Text fontSize="xs" color="fg.muted">
                    {formatDate(r.createdAt)}
                  </Text>
                </HStack>
                <Text fontSize="xs" color="fg.muted">
                  {r.totalAmount === null
                    ? formatMoney(null)
                    : `Total ${formatMoney(r.totalAmount)} · Paid ${formatMoney(r.paid)} · Left ${formatMoney(r.leftToPay)}`}
                </Text>
              </Stack>
              <OpenRequest id={r.id} />
            </HStack>
          </Box>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollArea maxWidth="100%">
      <Table.Root size="md" aria-label={label} interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Tool</Table.ColumnHeader>
            <Table.ColumnHeader>Client</Table.ColumnHeader>
            <Table.ColumnHeader>Order Date</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Paid</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Left to pay</Table.ColumnHeader>
            <Table.ColumnHeader width="1%">
              <Box as="span" srOnly>
                Link
              </Box>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {requests.map((r) => (
            <Table.Row key={r.id} data-testid="queue-row" data-request-id={r.id} data-status={r.status}>
              <Table.Cell>
                <ToolName type={r.productRequestType} />
              </Table.Cell>
              <Table.Cell>
                <Stack gap="0">
                  <ClientLink uid={r.client.uid}>{r.client.name || r.client.email}</ClientLink>
                  <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
                    {r.client.email}
                  </Text>
                </Stack>
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDate(r.createdAt)}</Table.Cell>
              <Table.Cell>
                <RequestStatusBadge status={r.status} />
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {formatMoney(r.totalAmount)}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {formatMoney(r.paid)}
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {formatMoney(r.leftToPay)}
              </Table.Cell>
              <Table.Cell textAlign="end">
                <OpenRequest id={r.id} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** The client's name and email, one under the other (a client without a name is named by the email, once). */
function ClientCell({ client }: { client: QueueThread['client'] }) {
  return (
    <Stack gap="0" minWidth="0">
      <ClientLink uid={client.uid} wordBreak="break-all">
        {client.name || client.email}
      </ClientLink>
      {client.name && client.name !== client.email && (
        <Text fontSize="xs" color="fg.muted" wordBreak="break-all">
          {client.email}
        </Text>
      )}
    </Stack>
  );
}

/** Conversations whose last message is the client's, longest waiting first: each opens at that conversation. */
export function ThreadsList({ threads, label }: { threads: QueueThread[]; label: string }) {
  const isMobile = useIsMobile();
  if (isMobile) {
    return (
      <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={label}>
        {threads.map((t) => (
          <Box as="li" key={t.id} py="3" borderTopWidth="1px" borderColor="portal.border" data-testid="queue-row" data-thread-id={t.id}>
            <HStack justify="space-between" align="start" gap="3">
              <Stack gap="1" minWidth="0">
                <Text fontWeight="medium" wordBreak="break-word">
                  {t.subject}
                </Text>
                <ClientCell client={t.client} />
                <Text fontSize="xs" color="fg.muted">
                  Waiting since {formatDateTime(t.awaitingSince)}
                </Text>
              </Stack>
              <ThreadLink uid={t.client.uid} threadId={t.id} fontWeight="semibold">
                Open
              </ThreadLink>
            </HStack>
          </Box>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollArea maxWidth="100%">
      <Table.Root size="md" aria-label={label} interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Subject</Table.ColumnHeader>
            <Table.ColumnHeader>Client</Table.ColumnHeader>
            <Table.ColumnHeader>Waiting since</Table.ColumnHeader>
            <Table.ColumnHeader width="1%">
              <Box as="span" srOnly>
                Link
              </Box>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {threads.map((t) => (
            <Table.Row key={t.id} data-testid="queue-row" data-thread-id={t.id}>
              <Table.Cell wordBreak="break-word" fontWeight="medium">
                {t.subject}
              </Table.Cell>
              <Table.Cell>
                <ClientCell client={t.client} />
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDateTime(t.awaitingSince)}</Table.Cell>
              <Table.Cell textAlign="end">
                <ThreadLink uid={t.client.uid} threadId={t.id} fontWeight="semibold">
                  Open
                </ThreadLink>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** Refund requests waiting for a decision, oldest first: each opens its request, where the decision is made. */
export function RefundsQueueList({ refunds, label }: { refunds: QueueRefund[]; label: string }) {
  const isMobile = useIsMobile();
  if (isMobile) {
    return (
      <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={label}>
        {refunds.map((r) => (
          <Box as="li" key={r.id} py="3" borderTopWidth="1px" borderColor="portal.border" data-testid="queue-row" data-refund-id={r.id}>
            <HStack justify="space-between" align="start" gap="3">
              <Stack gap="1" minWidth="0">
                <ToolName type={r.productRequestType} />
                <ClientCell client={r.client} />
                <HStack gap="2" wrap="wrap">
                  <Badge colorPalette={r.refundRequestType === 'FULL' ? 'red' : 'orange'} variant="subtle">
                    {refundTypeLabel[r.refundRequestType]}
                  </Badge>
                  <Text fontSize="xs" color="fg.muted">
                    {formatDate(r.createdAt)} · Paid {formatMoney(r.paid)}
                  </Text>
                </HStack>
                <Text fontSize="sm" lineClamp={2} wordBreak="break-word">
                  {r.reason}
                </Text>
              </Stack>
              <OpenRequest id={r.requestId} />
            </HStack>
          </Box>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollArea maxWidth="100%">
      <Table.Root size="md" aria-label={label} interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Tool</Table.ColumnHeader>
            <Table.ColumnHeader>Client</Table.ColumnHeader>
            <Table.ColumnHeader>Type</Table.ColumnHeader>
            <Table.ColumnHeader>Reason</Table.ColumnHeader>
            <Table.ColumnHeader>Asked on</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Paid</Table.ColumnHeader>
            <Table.ColumnHeader width="1%">
              <Box as="span" srOnly>
                Link
              </Box>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {refunds.map((r) => (
            <Table.Row key={r.id} data-testid="queue-row" data-refund-id={r.id}>
              <Table.Cell>
                <ToolName type={r.productRequestType} />
              </Table.Cell>
              <Table.Cell>
                <ClientCell client={r.client} />
              </Table.Cell>
              <Table.Cell>
                <Badge colorPalette={r.refundRequestType === 'FULL' ? 'red' : 'orange'} variant="subtle">
                  {refundTypeLabel[r.refundRequestType]}
                </Badge>
              </Table.Cell>
              <Table.Cell maxWidth="280px">
                <Text lineClamp={2} wordBreak="break-word" title={r.reason}>
                  {r.reason}
                </Text>
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDate(r.createdAt)}</Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {formatMoney(r.paid)}
              </Table.Cell>
              <Table.Cell textAlign="end">
                <OpenRequest id={r.requestId} />
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
