import { Badge } from '@chakra-ui/react';
import { type RefundStatus, refundStatusLabel } from '../../../../domain/schemas.ts';

const palette: Record<RefundStatus, string> = {
  requested: 'purple',
  approved: 'green',
  declined: 'red',
};

/** The mark beside a request's status: where its latest refund stands. Outlined, so it does not read as a second status. */
export function RefundBadge({ status }: { status: RefundStatus }) {
  return (
    <Badge colorPalette={palette[status]} variant="outline" size="sm" whiteSpace="nowrap" data-testid="refund-badge" data-refund-status={status}>
      {refundStatusLabel[status]}
    </Badge>
  );
}
