import { Link, Table, Text } from '@chakra-ui/react';
import { ExternalLink } from 'lucide-react';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import { type StaffDeal, paymentMethodLabel } from '../../../../domain/staff.ts';
import { toolByBackendName } from '../../../../domain/tools.ts';
import { RequestLink } from './links.tsx';
import { EmptyText } from './section-card.tsx';

/** Payments with their invoices. On the client page each row also names the request it paid for. */
export function PaymentsTable({ deals, showRequest = false }: { deals: StaffDeal[]; showRequest?: boolean }) {
  if (deals.length === 0) return <EmptyText>No payments recorded yet.</EmptyText>;
  return (
    <Table.ScrollArea maxWidth="100%">
      <Table.Root size="sm" aria-label="Payments">
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>Date</Table.ColumnHeader>
            {showRequest && <Table.ColumnHeader>Request</Table.ColumnHeader>}
            <Table.ColumnHeader textAlign="end">Amount</Table.ColumnHeader>
            <Table.ColumnHeader>Method</Table.ColumnHeader>
            <Table.ColumnHeader>Reference</Table.ColumnHeader>
            <Table.ColumnHeader>Invoice</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {deals.map((deal) => (
            <Table.Row key={deal.id} data-deal-id={deal.id}>
              {/* paidAt is when the money arrived; older deals only know when they were recorded. */}
              <Table.Cell whiteSpace="nowrap">{formatDate(deal.paidAt ?? deal.Created_Time)}</Table.Cell>
              {showRequest && (
                <Table.Cell>
                  <RequestLink requestId={deal.requestId}>{toolByBackendName(deal.productRequestType)?.header ?? deal.productRequestType}</RequestLink>
                </Table.Cell>
              )}
              <Table.Cell textAlign="end" whiteSpace="nowrap">
                {formatMoney(deal.amount)}
              </Table.Cell>
              <Table.Cell>{deal.method ? paymentMethodLabel[deal.method] : '—'}</Table.Cell>
              <Table.Cell wordBreak="break-word">{deal.reference || '—'}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">
                {deal.invoice ? (
                  // The invoice link is signed and short-lived: it opens as is, no token needed.
                  <Link href={deal.invoice} target="_blank" rel="noopener noreferrer" color="brand.fg" fontWeight="medium">
                    {deal.invoiceNumber ?? 'Invoice'}
                    <ExternalLink size={14} aria-hidden="true" />
                  </Link>
                ) : (
                  <Text as="span">{deal.invoiceNumber ?? '—'}</Text>
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
