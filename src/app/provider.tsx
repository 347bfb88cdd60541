import type { ReactNode } from 'react';
import { ChakraProvider } from '@chakra-ui/react';
import { LoadingOverlay } from './shell/loading-overlay.tsx';
import { MessageBar } from './shell/message-bar.tsx';
import { useAppSystem } from './app-system.ts';

/**
 * The app-wide providers. The overlay and the message bar live here, once, rather than in the
 * shell layout, so they also work on screens outside it (login, initial password, not found).
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ChakraProvider value={useAppSystem()}>
      {/* Before the page (it is fixed, so only the order of effects changes): the room it reserves at the bottom
          is set before a page's own effects scroll something into view above it. */}
      <MessageBar />
      {children}
      <LoadingOverlay />
    </ChakraProvider>
  );
}
