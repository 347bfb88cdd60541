import { HStack, Text } from '@chakra-ui/react';
import { CloudOff } from 'lucide-react';

/** Beside an action that needs the server: it is disabled offline, and this says why. */
export function OfflineHint() {
  return (
    <HStack gap="1.5" color="fg.muted" fontSize="sm" data-testid="offline-hint">
      <CloudOff size={14} aria-hidden="true" />
      <Text>You are offline</Text>
    </HStack>
  );
}
