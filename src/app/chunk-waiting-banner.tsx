import { Box, Text } from '@chakra-ui/react';
import { connectionLostText, useChunkWaitingBanner } from '../lib/lazy-import.ts';
import { useOnline } from '../lib/pwa.ts';

/**
 * While a part of the app (a screen's code, the Auth SDK) waits for the connection, every screen says so in words,
 * instead of a blank area or a spinner that never ends; it goes away once the part arrived.
 */
export function ChunkWaitingBanner() {
  const waiting = useChunkWaitingBanner();
  const online = useOnline();
  if (!waiting) return null;
  return (
    <Box position="fixed" top="3" left="50%" transform="translateX(-50%)" zIndex="toast" bg="orange.100" color="orange.900" borderRadius="l2" px="4" py="2" role="status" maxWidth="calc(100vw - 24px)">
      <Text>
        {connectionLostText}
        {online ? '.' : ' when you are back online.'}
      </Text>
    </Box>
  );
}
