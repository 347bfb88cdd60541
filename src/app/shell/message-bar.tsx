import { useEffect, useState } from 'react';
import { Alert, Box, CloseButton } from '@chakra-ui/react';
import { removeMessage, useMessages } from '../../lib/ui-state.ts';

/** Spec section 8/9: the bar hides itself after this long unless the message names a duration. */
export const defaultMessageDurationMs = 3500;

/** Length of the exit animation; the message leaves the store only once it has played. */
export const messageExitMs = 200;

/**
 * Shows the oldest queued message at the bottom centre. Unlike a MUI Snackbar's default, a click
 * elsewhere does not dismiss it: a user reading an error should not lose it by touching the page.
 */
export function MessageBar() {
  const messages = useMessages();
  const current = messages[0];
  const currentKey = current?.key;
  const duration = current?.duration ?? defaultMessageDurationMs;
  // Keyed by message, so a new message never inherits the closing state of the previous one.
  const [closingKey, setClosingKey] = useState<string | null>(null);
  const closing = currentKey !== undefined && closingKey === currentKey;

  useEffect(() => {
    if (currentKey === undefined) return;
    const timer = setTimeout(() => setClosingKey(currentKey), duration);
    return () => clearTimeout(timer);
  }, [currentKey, duration]);

  useEffect(() => {
    if (!closing || currentKey === undefined) return;
    const timer = setTimeout(() => removeMessage(currentKey), messageExitMs);
    return () => clearTimeout(timer);
  }, [closing, currentKey]);

  if (!current) return null;

  return (
    <Box
      position="fixed"
      bottom="6"
      left="50%"
      transform="translateX(-50%)"
      zIndex="toast"
      width="max-content"
      maxWidth="calc(100vw - 2rem)"
      data-state={closing ? 'closed' : 'open'}
      _open={{ animationName: 'fade-in, slide-from-bottom', animationDuration: 'moderate' }}
      _closed={{ animationName: 'fade-out', animationDuration: `${messageExitMs}ms`, animationFillMode: 'forwards' }}
    >
      <Alert.Root
        key={current.key}
        status={current.severity}
        variant="solid"
        // Errors interrupt the screen reader; everything else waits for a pause.
        role={current.severity === 'error' ? 'alert' : 'status'}
        alignItems="center"
        borderRadius="l2"
        boxShadow="none"
        pe="2"
      >
        <Alert.Indicator />
        <Alert.Title fontWeight="medium">{current.message}</Alert.Title>
        <CloseButton
          size="sm"
          variant="plain"
          color="inherit"
          aria-label="Close message"
          onClick={() => setClosingKey(current.key)}
        />
      </Alert.Root>
    </Box>
  );
}
