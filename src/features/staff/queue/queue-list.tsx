import { Badge, Box, HStack, Link as ChakraLink, Stack, Table, Text } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { refundTypeLabel } from '../../../../domain/enums.ts';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import type { QueueItem } from '../../../../domain/staff.ts';
import { toolByBackendName } from '../../../../domain/tools.ts';
import { RequestStatusBadge } from '../../../components/request-status-badge.tsx';
import { ToolIcon } from '../../../components/tool-icon.tsx';
import { useIsMobile } from '../../../lib/ui-state.ts';
import { formatDateTime } from '../../../../domain/format.ts';
import { ClientLink, ThreadLink } from '../shared/links.tsx';

type Lead = Extract<QueueItem, { kind: 'lead' }>;
type QueueRequest = Extract<QueueItem, { kind: 'request' }>;
type QueueThread = Extract<QueueItem, { kind: 'thread' }>;
type QueueRefund = Extract<QueueItem, { kind: 'refund' }>;

/** A queue tab on a phone: one card per row. */
function QueueCards({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={label}>
      {children}
    </Stack>
  );
}

/** One card: what the row says on the left, its Open link on the right. `data` are the row's data-* attributes. */
function QueueCard({ data, open, children }: { data: Record<`data-${string}`, string>; open: ReactNode; children: ReactNode }) {
  return (
    <Box as="li" py="3" borderTopWidth="1px" borderColor="portal.border" data-testid="queue-row" {...data}>
      <HStack justify="space-between" align="start" gap="3">
        <Stack gap="1" minWidth="0">
          {children}
        </Stack>
        {open}
      </HStack>
    </Box>
  );
}

/** A queue tab on a wide screen: the columns, then a last one for the Open link. */
function QueueTable({ label, columns, children }: { label: string; columns: { name: string; end?: boolean }[]; children: ReactNode }) {
  return (
    <Table.ScrollArea maxWidth="100%">
      <Table.Root size="md" aria-label={label} interactive>
        <Table.Header>
          <Table.Row>
            {columns.map((c) => (
              <Table.ColumnHeader key={c.name} textAlign={c.end ? 'end' : undefined}>
                {c.name}
              </Table.ColumnHeader>
            ))}
            <Table.ColumnHeader width="1%">
              <Box as="span" srOnly>
                Link
              </Box>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>{children}</Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function RefundTypeBadge({ type }: { type: QueueRefund['refundRequestType'] }) {
  return (
    <Badge colorPalette={type === 'FULL' ? 'red' : 'orange'} variant="subtle">
      {refundTypeLabel[type]}
    </Badge>
  );
}

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

/** The client's name and email, one under the other (a client without a name is named by the email, once). */
function ClientCell({ client }: { client: { uid: string; name: string; email: string } }) {
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

/** Leads waiting for approval: who, when they signed up, whether the initial form is in. */
export function LeadsList({ leads, label }: { leads: Lead[]; label: string }) {
  if (useIsMobile()) {
    return (
      <QueueCards label={label}>
        {leads.map((lead) => (
          <QueueCard key={lead.uid} data={{ 'data-uid': lead.uid }} open={<OpenClient uid={lead.uid} />}>
            <ClientCell client={lead} />
            <HStack gap="2" wrap="wrap">
              <Text fontSize="xs" color="fg.muted">
                Signed up {formatDate(lead.createdAt)}
              </Text>
              <FormBadge filled={lead.filledInitialForm} />
            </HStack>
          </QueueCard>
        ))}
      </QueueCards>
    );
  }
  return (
    <QueueTable label={label} columns={[{ name: 'Name' }, { name: 'Email' }, { name: 'Signed up' }, { name: 'Initial form' }]}>
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
    </QueueTable>
  );
}

/** Requests of one status, oldest first: what was ordered, by whom, and where the money stands. */
export function RequestsList({ requests, label }: { requests: QueueRequest[]; label: string }) {
  if (useIsMobile()) {
    return (
      <QueueCards label={label}>
        {requests.map((r) => (
          <QueueCard key={r.id} data={{ 'data-request-id': r.id, 'data-status': r.status }} open={<OpenRequest id={r.id} />}>
            <ToolName type={r.productRequestType} />
            <ClientCell client={r.client} />
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
          </QueueCard>
        ))}
      </QueueCards>
    );
  }
  return (
    <QueueTable
      label={label}
      columns={[{ name: 'Tool' }, { name: 'Client' }, { name: 'Order Date' }, { name: 'Status' }, { name: 'Total', end: true }, { name: 'Paid', end: true }, { name: 'Left to pay', end: true }]}
    >
      {requests.map((r) => (
        <Table.Row key={r.id} data-testid="queue-row" data-request-id={r.id} data-status={r.status}>
          <Table.Cell>
            <ToolName type={r.productRequestType} />
          </Table.Cell>
          <Table.Cell>
            <ClientCell client={r.client} />
          </Table.Cell>
          <Table.Cell whiteSpace="nowrap">{formatDate(r.createdAt)}</Table.Cell>
          <Table.Cell>
            <RequestStatusBadge status={r.status} />
          </Table.Cell>
          {[r.totalAmount, r.paid, r.leftToPay].map((amount, i) => (
            <Table.Cell key={i} textAlign="end" whiteSpace="nowrap">
              {formatMoney(amount)}
            </Table.Cell>
          ))}
          <Table.Cell textAlign="end">
            <OpenRequest id={r.id} />
          </Table.Cell>
        </Table.Row>
      ))}
    </QueueTable>
  );
}

/** Conversations whose last message is the client's, longest waiting first: each opens at that conversation. */
export function ThreadsList({ threads, label }: { threads: QueueThread[]; label: string }) {
  const open = (t: QueueThread) => (
    <ThreadLink uid={t.client.uid} threadId={t.id} fontWeight="semibold">
      Open
    </ThreadLink>
  );
  if (useIsMobile()) {
    return (
      <QueueCards label={label}>
        {threads.map((t) => (
          <QueueCard key={t.id} data={{ 'data-thread-id': t.id }} open={open(t)}>
            <Text fontWeight="medium" wordBreak="break-word">
              {t.subject}
            </Text>
            <ClientCell client={t.client} />
            <Text fontSize="xs" color="fg.muted">
              Waiting since {formatDateTime(t.awaitingSince)}
            </Text>
          </QueueCard>
        ))}
      </QueueCards>
    );
  }
  return (
    <QueueTable label={label} columns={[{ name: 'Subject' }, { name: 'Client' }, { name: 'Waiting since' }]}>
      {threads.map((t) => (
        <Table.Row key={t.id} data-testid="queue-row" data-thread-id={t.id}>
          <Table.Cell wordBreak="break-word" fontWeight="medium">
            {t.subject}
          </Table.Cell>
          <Table.Cell>
            <ClientCell client={t.client} />
          </Table.Cell>
          <Table.Cell whiteSpace="nowrap">{formatDateTime(t.awaitingSince)}</Table.Cell>
          <Table.Cell textAlign="end">{open(t)}</Table.Cell>
        </Table.Row>
      ))}
    </QueueTable>
  );
}

/** Refund requests waiting for a decision, oldest first: each opens its request, where the decision is made. */
export function RefundsQueueList({ refunds, label }: { refunds: QueueRefund[]; label: string }) {
  if (useIsMobile()) {
    return (
      <QueueCards label={label}>
        {refunds.map((r) => (
          <QueueCard key={r.id} data={{ 'data-refund-id': r.id }} open={<OpenRequest id={r.requestId} />}>
            <ToolName type={r.productRequestType} />
            <ClientCell client={r.client} />
            <HStack gap="2" wrap="wrap">
              <RefundTypeBadge type={r.refundRequestType} />
              <Text fontSize="xs" color="fg.muted">
                {formatDate(r.createdAt)} · Paid {formatMoney(r.paid)}
              </Text>
            </HStack>
            <Text fontSize="sm" lineClamp={2} wordBreak="break-word">
              {r.reason}
            </Text>
          </QueueCard>
        ))}
      </QueueCards>
    );
  }
  return (
    <QueueTable label={label} columns={[{ name: 'Tool' }, { name: 'Client' }, { name: 'Type' }, { name: 'Reason' }, { name: 'Asked on' }, { name: 'Paid', end: true }]}>
      {refunds.map((r) => (
        <Table.Row key={r.id} data-testid="queue-row" data-refund-id={r.id}>
          <Table.Cell>
            <ToolName type={r.productRequestType} />
          </Table.Cell>
          <Table.Cell>
            <ClientCell client={r.client} />
          </Table.Cell>
          <Table.Cell>
            <RefundTypeBadge type={r.refundRequestType} />
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
    </QueueTable>
  );
}
