import { Box, Heading, Text } from '@chakra-ui/react';
import { ErrorComponent, type ErrorComponentProps, useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { isModuleLoadFailure, MAX_BACKOFF_MS } from '../lib/lazy-import.ts';
import { useOnline } from '../lib/pwa.ts';

/**
 * Every route's error boundary (the router's default). A screen whose code did not arrive says so with the
 * connection's state and loads again by itself when the connection returns (and every half minute meanwhile),
 * never a blank page; any other error keeps the router's own panel.
 */
export function RouteLoadError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const online = useOnline();
  const loadFailed = isModuleLoadFailure(error);
  useEffect(() => {
    if (!loadFailed) return;
    const retry = () => {
      reset();
      void router.invalidate();
    };
    const timer = setInterval(retry, MAX_BACKOFF_MS);
    window.addEventListener('online', retry);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', retry);
    };
  }, [loadFailed, reset, router]);
  if (!loadFailed) return <ErrorComponent error={error} />;
  return (
    <Box role="alert" maxWidth="32rem" mx="auto" my="10" p="6" bg="white" borderRadius="l3" borderWidth="1px">
      <Heading as="h1" size="md" mb="2">
        This screen could not be loaded
      </Heading>
      <Text>{online ? 'The connection dropped while it was loading. We will try again in a moment.' : 'This device is offline. We will try again as soon as the connection is back.'}</Text>
    </Box>
  );
}
