import { Badge, Stack } from '@chakra-ui/react';
import { capitalise, formatDate } from '../../../../domain/format.ts';
import type { RequestFile } from '../../../../domain/staff.ts';
import { toolByBackendName, visibleDetails } from '../../../../domain/tools.ts';
import { Facts } from '../shared/facts.tsx';
import { FileList } from '../shared/file-list.tsx';
import { HistoryList } from '../shared/history-list.tsx';
import { NotesSection } from '../shared/notes-section.tsx';
import { PaymentsTable } from '../shared/payments-table.tsx';
import { RefundsList } from '../shared/refunds-list.tsx';
import { EmptyText, SectionCard } from '../shared/section-card.tsx';
import { TrackingSection } from './tracking-section.tsx';

/** Dates travel as timestamps and select values in lower case; they are shown as the client's form showed them. */
function displayValue(type: string | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (type === 'date') return formatDate(Number(value));
  if (type === 'select' && typeof value === 'string') return capitalise(value);
  return String(value);
}

export function RequestSections({ file, refreshing, reload }: { file: RequestFile; refreshing: boolean; reload(): void }) {
  const { request } = file;
  const tool = toolByBackendName(request.productRequestType);
  const header = (key: string | null) => tool?.formFields.find((f) => f.backendHeader === key)?.header ?? key;
  const details = visibleDetails(request.productRequestType, request.requestDetails);
  // A refund waiting for a decision is what staff came for (the queue's "Refunds to decide"): it goes first.
  const toDecide = file.refunds.some((r) => r.status === 'requested');
  const refunds = (
    <SectionCard title="Refund requests" count={file.refunds.length}>
      <RefundsList refunds={file.refunds} refreshing={refreshing} reload={reload} />
    </SectionCard>
  );

  return (
    <Stack gap="6">
      {toDecide && refunds}
      <SectionCard title="Request details">
        {details.length === 0 ? (
          <EmptyText>—</EmptyText>
        ) : (
          <Facts
            label="Request details"
            items={details.map(([key, value]) => {
              const field = tool?.formFields.find((f) => f.backendHeader === key);
              return { label: field?.header ?? key, value: displayValue(field?.type, value) };
            })}
          />
        )}
      </SectionCard>
      <SectionCard title="Evidence" count={file.evidence.length}>
        <FileList
          files={file.evidence}
          label="Evidence"
          emptyText="The client attached no evidence."
          extra={(f) =>
            f.field && (
              <Badge variant="subtle" colorPalette="gray">
                {header(f.field)}
              </Badge>
            )
          }
        />
      </SectionCard>
      <SectionCard title="Final files" count={file.finalFiles.length}>
        <FileList
          files={file.finalFiles}
          label="Final files"
          emptyText="No final file delivered yet."
          extra={(f) =>
            f.id === request.finalFileId ? (
              <Badge colorPalette="green" variant="subtle">
                Current
              </Badge>
            ) : (
              <Badge colorPalette="gray" variant="subtle">
                Replaced
              </Badge>
            )
          }
        />
      </SectionCard>
      {request.productRequestType === 'TRACK_MASTER' && <TrackingSection file={file} reload={reload} />}
      <SectionCard title="Payments and invoices" count={file.deals.length}>
        <PaymentsTable deals={file.deals} />
      </SectionCard>
      {!toDecide && refunds}
      <NotesSection notes={file.notes} clientUid={file.client.uid} requestId={request.id} />
      <SectionCard title="History">
        <HistoryList entries={file.history} />
      </SectionCard>
    </Stack>
  );
}
