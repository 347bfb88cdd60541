import { Badge } from '@chakra-ui/react';
import { type RefundStatus, refundStatusLabel } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';

const palette: Record<RefundStatus, string> = {
  requested: 'purple',
  approved: 'green',
  declined: 'red',
};

/**
 * The mark beside a request's status: where its latest refund stands, and whether it is still on this
 * device waiting for the connection. Outlined, so it does not read as a second status.
 */
export function RefundBadge({ status, pending = false }: { status: RefundStatus; pending?: boolean }) {
  return (
    <Badge colorPalette={palette[status]} variant="outline" size="sm" whiteSpace="nowrap" data-testid="refund-badge" data-refund-status={status} data-pending={pending}>
      {refundStatusLabel[status]}
      {pending && ` · ${texts.waitingToSend}`}
    </Badge>
  );
}
