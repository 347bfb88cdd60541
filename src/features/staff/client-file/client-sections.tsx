import { Box, HStack, Stack, Table, Text } from '@chakra-ui/react';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import type { ClientFile } from '../../../../domain/staff.ts';
import { requestRef, toolByBackendName } from '../../../../domain/tools.ts';
import { RequestStatusBadge } from '../../../components/request-status-badge.tsx';
import { ToolIcon } from '../../../components/tool-icon.tsx';
import { FileList } from '../shared/file-list.tsx';
import { HistoryList } from '../shared/history-list.tsx';
import { RequestLink } from '../shared/links.tsx';
import { NotesSection } from '../shared/notes-section.tsx';
import { PaymentsTable } from '../shared/payments-table.tsx';
import { RefundsList } from '../shared/refunds-list.tsx';
import { EmptyText, SectionCard } from '../shared/section-card.tsx';
import { Conversations } from './conversations.tsx';

function toolName(type: string): string {
  return toolByBackendName(type)?.header ?? type;
}

/** Everything on the client's file below the profile, one titled section each; what staff act on first. */
export function ClientSections({ file, refreshing, reload }: { file: ClientFile; refreshing: boolean; reload(): void }) {
  const uid = file.client.uid;
  const aboutRequest = (requestId: string) => {
    const request = file.requests.find((r) => r.id === requestId);
    return (
      <RequestLink requestId={requestId} fontSize="xs">
        {request ? toolName(request.productRequestType) : 'Request'}
      </RequestLink>
    );
  };
  return (
    <Stack gap="6">
      <SectionCard title="Requests" count={file.requests.length}>
        <RequestsTable requests={file.requests} />
      </SectionCard>
      <Conversations threads={file.threads} clientUid={uid} refreshing={refreshing} reload={reload} />
      <SectionCard title="Refund requests" count={file.refunds.length}>
        <RefundsList refunds={file.refunds} showRequest refreshing={refreshing} reload={reload} />
      </SectionCard>
      <NotesSection notes={file.notes} clientUid={uid} aboutRequest={aboutRequest} />
      <SectionCard title="Evidence" count={file.evidence.length}>
        <FileList
          files={file.evidence}
          label="Evidence"
          emptyText="No evidence attached to the requests."
          extra={(f) => {
            const request = file.requests.find((r) => r.id === f.requestId);
            return (
              <RequestLink requestId={f.requestId} fontSize="xs">
                {request ? toolName(request.productRequestType) : 'Request'}
              </RequestLink>
            );
          }}
        />
      </SectionCard>
      <SectionCard title="Payments and invoices" count={file.deals.length}>
        <PaymentsTable deals={file.deals} showRequest />
      </SectionCard>
      <SectionCard title="General files" count={file.files.length}>
        <FileList files={file.files} label="General files" emptyText="No general files uploaded." />
      </SectionCard>
      <SectionCard title="Notifications sent" count={file.notifications.length}>
        <MessageList
          label="Notifications sent"
          emptyText="No notifications sent to this client."
          items={file.notifications.map((n) => ({ id: n.id, body: n.message, at: n.createdAt }))}
        />
      </SectionCard>
      <SectionCard title="History">
        <HistoryList entries={file.history} />
      </SectionCard>
    </Stack>
  );
}

function RequestsTable({ requests }: { requests: ClientFile['requests'] }) {
  if (requests.length === 0) return <EmptyText>No requests yet.</EmptyText>;
  return (
    <Table.ScrollArea maxWidth="100%">
      <Table.Root size="sm" aria-label="Requests" interactive>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Tool</Table.ColumnHeader>
            <Table.ColumnHeader>Order Date</Table.ColumnHeader>
            <Table.ColumnHeader>Status</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Total</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">Left to pay</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {requests.map((r) => {
            const tool = toolByBackendName(r.productRequestType);
            return (
              <Table.Row key={r.id} data-request-id={r.id} data-status={r.status}>
                <Table.Cell>
                  <HStack gap="2">
                    {tool && (
                      <Box color="brand.fg" flexShrink={0}>
                        <ToolIcon icon={tool.icon} size={18} />
                      </Box>
                    )}
                    <RequestLink requestId={r.id}>{[toolName(r.productRequestType), requestRef(r)].filter(Boolean).join(' ')}</RequestLink>
                  </HStack>
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatDate(r.Created_Time)}</Table.Cell>
                <Table.Cell>
                  <RequestStatusBadge status={r.status} />
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  {formatMoney(r.totalAmount)}
                </Table.Cell>
                <Table.Cell textAlign="end" whiteSpace="nowrap">
                  {formatMoney(r.leftToPay)}
                </Table.Cell>
              </Table.Row>
            );
          })}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function MessageList({ items, label, emptyText }: { items: { id: string; title?: string; body: string; at: string }[]; label: string; emptyText: string }) {
  if (items.length === 0) return <EmptyText>{emptyText}</EmptyText>;
  return (
    <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={label}>
      {items.map((item) => (
        <Box as="li" key={item.id} py="3" borderTopWidth="1px" borderColor="portal.border" _first={{ borderTopWidth: 0, pt: 0 }}>
          <HStack gap="2" wrap="wrap">
            {item.title && (
              <Text fontWeight="medium" wordBreak="break-word">
                {item.title}
              </Text>
            )}
            <Text fontSize="xs" color="fg.muted">
              {formatDate(item.at)}
            </Text>
          </HStack>
          <Text mt="1" whiteSpace="pre-wrap" wordBreak="break-word">
            {item.body}
          </Text>
        </Box>
      ))}
    </Stack>
  );
}
