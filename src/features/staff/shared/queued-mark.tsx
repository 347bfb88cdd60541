import { Badge, Text } from '@chakra-ui/react';
import { Clock } from 'lucide-react';
import type { OutboxCommand } from '../../../lib/db.ts';

export const WAITING_TO_BE_SENT = 'Waiting to be sent';

/** The mark of a reply or note still on the device; a refused one says why (the outbox panel retries or discards it). */
export function QueuedMark({ command }: { command: OutboxCommand }) {
  if (command.status === 'failed') {
    return (
      <>
        <Badge colorPalette="red" variant="subtle">
          Not sent
        </Badge>
        {command.error && (
          <Text as="span" fontSize="xs" color="red.fg" wordBreak="break-word">
            {command.error}
          </Text>
        )}
      </>
    );
  }
  return (
    <Badge colorPalette="orange" variant="subtle">
      <Clock size={12} aria-hidden="true" />
      {WAITING_TO_BE_SENT}
    </Badge>
  );
}
