import { Badge, Box, Button, DataList, HStack, Heading, Text } from '@chakra-ui/react';
import { refundTypeLabel } from '../../../../domain/enums.ts';
import { formatDate, formatMoney, capitalise } from '../../../../domain/format.ts';
import type { RefundStatus } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { requestRef, visibleDetails } from '../../../../domain/tools.ts';
import { useEffect } from 'react';
import type { LocalRefund, LocalRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { markRequestSeen } from '../../../lib/seen-marks.ts';
import { Popup } from '../../../components/popup.tsx';
import { useRequestRefunds } from './use-refunds.ts';
import { needsPayment } from './how-to-pay.ts';
import { toolOf } from './use-requests.ts';

function displayValue(type: string | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  // Dates travel as timestamps and select values in lower case; show them as the form did.
  if (type === 'date') return formatDate(Number(value));
  if (type === 'select' && typeof value === 'string') return capitalise(value);
  return String(value);
}

/** Opening the details tells the server the request was seen as of its last change (an email about it need not go). */
function useMarkSeen(request: LocalRequest | null): void {
  const db = useReplica();
  const id = request?.id;
  const updatedAt = request?.updatedAt;
  const pending = request?.pending === true;
  useEffect(() => {
    if (!id || !updatedAt) return;
    void markRequestSeen(db, { id, updatedAt, pending }).catch((err: unknown) => console.warn('seen mark not kept', err));
  }, [db, id, updatedAt, pending]);
}

/** Request Details: the reference (TM-0042), the submitted answers (prefix stripped, attachments hidden), the money and the refunds asked for. */
export function RequestDetailsDialog({ request, onClose, onHowToPay }: { request: LocalRequest | null; onClose(): void; onHowToPay?(request: LocalRequest): void }) {
  const tool = request ? toolOf(request) : undefined;
  const details = request ? visibleDetails(request.productRequestType, request.requestDetails) : [];
  const refunds = useRequestRefunds(request?.id ?? null);
  const ref = request ? requestRef(request) : null;
  useMarkSeen(request);
  return (
    <Popup open={request !== null} onClose={onClose} title="Request Details">
      {request && (
        <DataList.Root orientation="horizontal" gap="3" size="md">
          {ref && (
            <DataList.Item>
              <DataList.ItemLabel minWidth="40%">Reference</DataList.ItemLabel>
              <DataList.ItemValue fontFamily="mono" data-testid="details-ref">
                {ref}
              </DataList.ItemValue>
            </DataList.Item>
          )}
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
      {request && onHowToPay && needsPayment(request) && (
        <Button mt="5" colorPalette="brand" onClick={() => onHowToPay(request)}>
          How to pay
        </Button>
      )}
      {request && refunds?.map((refund) => <RefundSection key={refund.id} refund={refund} />)}
    </Popup>
  );
}

const decisionLabel: Record<RefundStatus, string> = { requested: 'Waiting for a decision', approved: 'Approved', declined: 'Declined' };

/** One refund of the request: what the client asked and, once staff decided, the decision with its amount and note. */
function RefundSection({ refund }: { refund: LocalRefund }) {
  return (
    <Box
      as="section"
      aria-label="Refund"
      data-testid="refund-section"
      data-refund-status={refund.status}
      mt="6"
      pt="4"
      borderTopWidth="1px"
      borderColor="portal.border"
    >
      <HStack gap="2" mb="3" wrap="wrap">
        <Heading as="h3" fontSize="md">
          Refund
        </Heading>
        {refund.pending && (
          <Badge colorPalette="yellow" variant="outline">
            {texts.waitingToSend}
          </Badge>
        )}
      </HStack>
      <DataList.Root orientation="horizontal" gap="3" size="md">
        <Row label="Type">{refundTypeLabel[refund.refundRequestType]}</Row>
        <Row label="Reason">{refund.reason}</Row>
        <Row label="Requested on">{formatDate(refund.createdAt)}</Row>
        <Row label="Decision">{decisionLabel[refund.status]}</Row>
        {/* A declined refund has no amount; "Awaiting definition" would promise one. */}
        {(refund.status === 'approved' || refund.amount !== null) && <Row label="Amount">{formatMoney(refund.amount)}</Row>}
        {refund.decidedAt && <Row label="Decided on">{formatDate(refund.decidedAt)}</Row>}
        {refund.note && <Row label="Note from support">{refund.note}</Row>}
      </DataList.Root>
    </Box>
  );
}

function Row({ label, children }: { label: string; children: string }) {
  return (
    <DataList.Item>
      <DataList.ItemLabel minWidth="40%">{label}</DataList.ItemLabel>
      <DataList.ItemValue wordBreak="break-word" whiteSpace="pre-wrap">
        {children}
      </DataList.ItemValue>
    </DataList.Item>
  );
}
