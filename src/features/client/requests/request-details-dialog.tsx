import { DataList, Text } from '@chakra-ui/react';
import { formatDate, formatMoney, capitalise } from '../../../../domain/format.ts';
import { visibleDetails } from '../../../../domain/tools.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { Popup } from '../../../components/popup.tsx';
import { toolOf } from './use-requests.ts';

function displayValue(type: string | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  // Dates travel as timestamps and select values in lower case; show them as the form did.
  if (type === 'date') return formatDate(Number(value));
  if (type === 'select' && typeof value === 'string') return capitalise(value);
  return String(value);
}

/** Request Details: the submitted answers (prefix stripped, attachments hidden) and the money. */
export function RequestDetailsDialog({ request, onClose }: { request: LocalRequest | null; onClose(): void }) {
  const tool = request ? toolOf(request) : undefined;
  const details = request ? visibleDetails(request.productRequestType, request.requestDetails) : [];
  return (
    <Popup open={request !== null} onClose={onClose} title="Request Details">
      {request && (
        <DataList.Root orientation="horizontal" gap="3" size="md">
          {details.map(([key, value]) => {
            const field = tool?.formFields.find((f) => f.backendHeader === key);
            return (
              <DataList.Item key={key}>
                <DataList.ItemLabel minWidth="40%">{field?.header ?? key}</DataList.ItemLabel>
                <DataList.ItemValue wordBreak="break-word">{displayValue(field?.type, value)}</DataList.ItemValue>
              </DataList.Item>
            );
          })}
          {details.length === 0 && <Text color="fg.muted">—</Text>}
          {request.status === 'Rejected' && (
            <DataList.Item>
              <DataList.ItemLabel minWidth="40%">Reason for rejection</DataList.ItemLabel>
              <DataList.ItemValue wordBreak="break-word">{request.rejectionReason || '—'}</DataList.ItemValue>
            </DataList.Item>
          )}
          <DataList.Item>
            <DataList.ItemLabel minWidth="40%">Total</DataList.ItemLabel>
            <DataList.ItemValue>{formatMoney(request.totalAmount)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minWidth="40%">Paid</DataList.ItemLabel>
            <DataList.ItemValue>{formatMoney(request.paid)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minWidth="40%">Left to pay</DataList.ItemLabel>
            <DataList.ItemValue>{formatMoney(request.leftToPay)}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minWidth="40%">Contract signed</DataList.ItemLabel>
            <DataList.ItemValue>{request.contractSigned ? 'Yes' : 'No'}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel minWidth="40%">Order date</DataList.ItemLabel>
            <DataList.ItemValue>{formatDate(request.Created_Time)}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      )}
    </Popup>
  );
}
