import { Badge } from '@chakra-ui/react';
import { type RequestStatus, isRequestStatus, statusLabelOf } from '../../domain/enums.ts';

const palette: Record<RequestStatus, string> = {
  Pending: 'gray',
  'Waiting for actions': 'orange',
  'In Progress': 'blue',
  Rejected: 'red',
  Done: 'green',
};

/**
 * A request's status as the spec labels it ("Waiting for actions" reads Awaiting Payment), coloured by stage.
 * A status from a newer server that this app does not know reads as the server wrote it, in neutral gray.
 */
export function RequestStatusBadge({ status }: { status: string }) {
  return (
    <Badge colorPalette={isRequestStatus(status) ? palette[status] : 'gray'} variant="subtle" size="md" whiteSpace="nowrap" data-status={status}>
      {statusLabelOf(status)}
    </Badge>
  );
}
