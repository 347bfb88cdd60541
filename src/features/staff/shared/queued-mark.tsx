import { Badge, Text } from '@chakra-ui/react';
import { Clock } from 'lucide-react';
import { texts } from '../../../../domain/texts.ts';
import type { OutboxCommand } from '../../../lib/db.ts';

/** The mark of a reply or note still on the device (the client's words for it too); a refused one says why (the outbox panel retries or discards it). */
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
      {texts.waitingToSend}
    </Badge>
  );
}
