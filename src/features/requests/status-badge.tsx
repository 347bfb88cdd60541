import { Badge } from '@chakra-ui/react';
import { type RequestStatus, statusLabel } from '../../../domain/enums.ts';

const palette: Record<RequestStatus, string> = {
  Pending: 'gray',
  'Waiting for actions': 'orange',
  'In Progress': 'blue',
  Rejected: 'red',
  Done: 'green',
};

export function StatusBadge({ status }: { status: RequestStatus }) {
  return (
    <Badge colorPalette={palette[status]} variant="subtle" size="md" whiteSpace="nowrap">
      {statusLabel[status]}
    </Badge>
  );
}
