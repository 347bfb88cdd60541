import { Badge } from '@chakra-ui/react';
import { type RequestStatus, statusLabel } from '../../domain/enums.ts';

const palette: Record<RequestStatus, string> = {
  Pending: 'gray',
  'Waiting for actions': 'orange',
  'In Progress': 'blue',
  Rejected: 'red',
  Done: 'green',
};

/** A request's status as the spec labels it ("Waiting for actions" reads Awaiting Payment), coloured by stage. */
export function RequestStatusBadge({ status }: { status: RequestStatus }) {
  return (
    <Badge colorPalette={palette[status]} variant="subtle" size="md" whiteSpace="nowrap" data-status={status}>
      {statusLabel[status]}
    </Badge>
  );
}
