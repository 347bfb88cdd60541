import { Badge, Box, HStack, Stack, Text } from '@chakra-ui/react';
import { refundTypeLabel } from '../../../../domain/enums.ts';
import { formatDate, formatMoney } from '../../../../domain/format.ts';
import type { StaffRefund } from '../../../../domain/staff.ts';
import { toolByBackendName } from '../../../../domain/tools.ts';
import { formatDateTime } from '../../../../domain/format.ts';
import { RequestLink } from './links.tsx';
import { RefundDecision } from './refund-decision.tsx';
import { EmptyText } from './section-card.tsx';

export interface RefundsListProps {
  refunds: StaffRefund[];
  /** On the client page each refund names the request it is about. */
  showRequest?: boolean;
  /** The page is reloading: a decision now would be made from a stale version. */
  refreshing: boolean;
  reload(): void;
}

// White text needs a background of at least 4.5:1 (WCAG AA): the palettes' solid shade (600) gives 3.56:1 on
// orange and 3.30:1 on green. Those two take a darker shade of the same hue (5.18:1 and 5.02:1; Chakra's 700s are
// near brown and near black, and "To decide" must still read as orange); red's 600 passes (4.83:1).
const statusBadge: Record<StaffRefund['status'], { label: string; palette: string; bg: string }> = {
  requested: { label: 'To decide', palette: 'orange', bg: '#c2410c' },
  approved: { label: 'Approved', palette: 'green', bg: '#15803d' },
  declined: { label: 'Declined', palette: 'red', bg: 'red.600' },
};

/** Refund requests the client sent: each with its decision, or the form to make it. */
export function RefundsList({ refunds, showRequest = false, refreshing, reload }: RefundsListProps) {
  if (refunds.length === 0) return <EmptyText>No refund requests.</EmptyText>;
  return (
    <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label="Refund requests">
      {refunds.map((refund) => (
        <Box
          as="li"
          key={refund.id}
          py="3"
          borderTopWidth="1px"
          borderColor="portal.border"
          _first={{ borderTopWidth: 0, pt: 0 }}
          data-testid="refund"
          data-status={refund.status}
        >
          <HStack gap="2" wrap="wrap">
            <Badge colorPalette={refund.refundRequestType === 'FULL' ? 'red' : 'orange'} variant="subtle">
              {refundTypeLabel[refund.refundRequestType]}
            </Badge>
            <Badge colorPalette={statusBadge[refund.status].palette} variant="solid" bg={statusBadge[refund.status].bg} color="white">
              {statusBadge[refund.status].label}
            </Badge>
            {showRequest && <RequestLink requestId={refund.processId}>{toolByBackendName(refund.tool)?.header ?? refund.tool}</RequestLink>}
            <Text fontSize="xs" color="fg.muted">
              {formatDate(refund.createdAt)} · {formatMoney(refund.paid)} paid
            </Text>
          </HStack>
          <Text mt="1" whiteSpace="pre-wrap" wordBreak="break-word">
            {refund.reason}
          </Text>
          {refund.status === 'requested' ? (
            <RefundDecision refund={refund} refreshing={refreshing} reload={reload} />
          ) : (
            <DecisionText refund={refund} />
          )}
        </Box>
      ))}
    </Stack>
  );
}

function DecisionText({ refund }: { refund: StaffRefund }) {
  // decidedBy is a uid: who decided is in the history, by email.
  const who = refund.decidedAt ? formatDateTime(refund.decidedAt) : '';
  return (
    <Box mt="2" fontSize="sm" borderStartWidth="3px" borderColor={refund.status === 'approved' ? 'green.300' : 'red.300'} ps="3">
      <Text fontWeight="medium">
        {refund.status === 'approved' ? `Approved: ${formatMoney(refund.amount)} returned` : 'Declined'}
        {who && (
          <Text as="span" fontWeight="normal" color="fg.muted">
            {' '}
            — {who}
          </Text>
        )}
      </Text>
      {refund.note && (
        <Text whiteSpace="pre-wrap" wordBreak="break-word" color="fg.muted">
          {refund.note}
        </Text>
      )}
    </Box>
  );
}
