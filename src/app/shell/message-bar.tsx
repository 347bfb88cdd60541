import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Alert, Box, CloseButton } from '@chakra-ui/react';
import { aboveQuickExit, messageBarSpaceVar } from '../../components/theme-tokens.ts';
import { removeMessage, useMessages } from '../../lib/ui-state.ts';

/** Spec section 8/9: the bar hides itself after this long unless the message names a duration. */
export const defaultMessageDurationMs = 3500;

/** Length of the exit animation; the message leaves the store only once it has played. */
export const messageExitMs = 200;

/** Room left between the bar and the content scrolled above it. */
const clearancePx = 8;

/**
 * Publishes the room the bar takes at the bottom of the viewport (its offset, its height and a gap) as
 * `messageBarSpaceVar` on the root element while it shows: the layout reserves it under the page and scrolling
 * into view stops above it (app/theme.ts), so content can always be brought out from under the bar.
 */
function useReservedSpace(bar: RefObject<HTMLDivElement | null>, showing: boolean) {
  useLayoutEffect(() => {
    const element = bar.current;
    if (!showing || !element) return;
    const root = document.documentElement;
    // The offset is read from the computed style, not the box: the entry animation moves the box for a moment.
    const measure = () => {
      const bottom = Number.parseFloat(getComputedStyle(element).bottom) || 0;
      root.style.setProperty(messageBarSpaceVar, `${Math.ceil(bottom + element.offsetHeight + clearancePx)}px`);
    };
    measure();
    // A longer message or a narrower window changes its height; jsdom has no ResizeObserver.
    const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    resized?.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      resized?.disconnect();
      window.removeEventListener('resize', measure);
      root.style.removeProperty(messageBarSpaceVar);
    };
  }, [bar, showing]);
}

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
  const bar = useRef<HTMLDivElement>(null);
  useReservedSpace(bar, current !== undefined);

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
      ref={bar}
      position="fixed"
      // On phones "Leave quickly" holds the bottom left corner above everything: the bar sits just over it rather
      // than under its edge; wider screens have room beside it.
      bottom={{ base: aboveQuickExit, md: '6' }}
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
