import { Link, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { ExternalLink } from 'lucide-react';
import { formatDate } from '../../../../domain/format.ts';
import { texts } from '../../../../domain/texts.ts';
import { toolByBackendName } from '../../../../domain/tools.ts';
import { useReplica } from '../../../lib/replica.ts';

/** Settings → Billings: one row per deal from the device replica, with its tool and invoice. */
export function BillingTab() {
  const db = useReplica();
  const rows = useLiveQuery(async () => {
    const deals = await db.deals.toArray();
    return deals
      .sort((a, b) => b.Created_Time.localeCompare(a.Created_Time))
      .map((deal) => ({ ...deal, toolName: toolByBackendName(deal.productRequestType)?.header ?? deal.productRequestType }));
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
    <Table.ScrollArea>
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
              <Table.Cell>{row.toolName}</Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatDate(row.Created_Time)}</Table.Cell>
              <Table.Cell>
                {row.invoice ? (
                  <Link href={row.invoice} target="_blank" rel="noopener noreferrer" color="brand.fg" fontWeight="medium">
                    Invoice
                    <ExternalLink size={14} aria-hidden="true" />
                  </Link>
                ) : (
                  '—'
                )}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}
