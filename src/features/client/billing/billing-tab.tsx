import { Box, HStack, Link, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { ExternalLink } from 'lucide-react';
import { formatDate } from '../../../../domain/format.ts';
import { texts } from '../../../../domain/texts.ts';
import { requestRef, toolByBackendName } from '../../../../domain/tools.ts';
import type { Deal } from '../../../../domain/schemas.ts';
import { useReplica } from '../../../lib/replica.ts';

type BillingRow = Deal & { toolName: string; ref: string | null };

/**
 * Settings → Billings: one row per deal from the device replica, with its tool, the reference of the
 * request it paid for, and its invoice. A table on wide screens; on phones one card per deal, since the
 * three columns scrolled sideways inside the card at 375 px and cut "Invoice" short.
 */
export function BillingTab() {
  const db = useReplica();
  const rows = useLiveQuery(async (): Promise<BillingRow[]> => {
    const deals = await db.deals.toArray();
    const requests = await db.requests.bulkGet([...new Set(deals.map((deal) => deal.requestId))]);
    const refs = new Map(requests.flatMap((request) => (request ? [[request.id, requestRef(request)] as const] : [])));
    return deals
      .sort((a, b) => b.Created_Time.localeCompare(a.Created_Time))
      .map((deal) => ({ ...deal, toolName: toolByBackendName(deal.productRequestType)?.header ?? deal.productRequestType, ref: refs.get(deal.requestId) ?? null }));
  }, [db]);

  if (rows === undefined) {
    return (
      <Stack gap="2">
        <Skeleton height="10" />
        <Skeleton height="10" />
      </Stack>
    );
  }
  if (rows.length === 0) return <Text color="fg.muted">{texts.nothingFound}</Text>;

  return (
    <>
      <Box hideBelow="md">
        <Table.Root size="md" aria-label="Billings">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Tool</Table.ColumnHeader>
              <Table.ColumnHeader>Date</Table.ColumnHeader>
              <Table.ColumnHeader>Invoice</Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {rows.map((row) => (
              <Table.Row key={row.id}>
                <Table.Cell>
                  <DealName row={row} />
                </Table.Cell>
                <Table.Cell whiteSpace="nowrap">{formatDate(row.Created_Time)}</Table.Cell>
                <Table.Cell>
                  <InvoiceLink row={row} />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      <Stack as="ul" hideFrom="md" gap="2" listStyleType="none" m="0" p="0" aria-label="Billings">
        {rows.map((row) => (
          <Box as="li" key={row.id} borderWidth="1px" borderColor="portal.border" rounded="l2" p="3" data-testid="billing-card">
            <HStack justify="space-between" align="center" gap="3" wrap="wrap">
              <Stack gap="0.5" minWidth="0">
                <DealName row={row} />
                <Text fontSize="sm">{formatDate(row.Created_Time)}</Text>
              </Stack>
              <InvoiceLink row={row} />
            </HStack>
          </Box>
        ))}
      </Stack>
    </>
  );
}

function DealName({ row }: { row: BillingRow }) {
  return (
    <HStack gap="2" wrap="wrap" rowGap="0">
      <Text fontWeight="medium">{row.toolName}</Text>
      {row.ref && (
        <Text as="span" fontSize="sm" fontFamily="mono" whiteSpace="nowrap">
          {row.ref}
        </Text>
      )}
    </HStack>
  );
}

function InvoiceLink({ row }: { row: BillingRow }) {
  if (!row.invoice) return <Text>—</Text>;
  return (
    <Link href={row.invoice} target="_blank" rel="noopener noreferrer" color="brand.fg" fontWeight="medium" whiteSpace="nowrap">
      Invoice{row.invoiceNumber ? ` ${row.invoiceNumber}` : ''}
      <ExternalLink size={14} aria-hidden="true" />
    </Link>
  );
}
