import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { texts } from '../../../domain/texts.ts';
import { applyUpdate, usePwa } from '../../lib/pwa.ts';

/** "A new version is available" with Reload: shown only when a new worker waits behind the current one. */
export function UpdatePrompt() {
  const { updateReady } = usePwa();
  if (!updateReady) return null;
  return (
    <Box position="fixed" top="3" left="50%" transform="translateX(-50%)" zIndex="toast" bg="portal.text" color="white" borderRadius="l2" px="4" py="2" role="status">
      <HStack gap="3">
        <Text>{texts.newVersion}</Text>
        <Button size="sm" colorPalette="brand" onClick={applyUpdate}>
          Reload
        </Button>
      </HStack>
    </Box>
  );
}
