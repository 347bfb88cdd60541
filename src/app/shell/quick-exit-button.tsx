import { Box, Button, VisuallyHidden } from '@chakra-ui/react';
import { DoorOpen } from 'lucide-react';
import { useEffect, useId } from 'react';
import { createDoubleEscape, leaveQuickly } from '../../lib/quick-exit.ts';

/**
 * "Leave quickly", on every screen (the root route renders it): a calm pill, above dialogs and drawers so it
 * stays reachable, and Escape pressed twice. Bottom left: on wide screens over the sidebar's empty foot, and
 * everywhere clear of the right-hand buttons of pages and of dialog footers (Cancel / Submit); on phones with
 * room left under the page so the footer's last line scrolls clear of it. See lib/quick-exit.ts for what it can and cannot
 * take out of the tab's history.
 */
export function QuickExitButton() {
  const hintId = useId();
  useEffect(() => {
    const onKey = createDoubleEscape(leaveQuickly);
    // Capture phase: the check for an open dialog runs before the dialog handles the Escape and closes.
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);
  return (
    <>
      <Box height={{ base: '14', md: '0' }} aria-hidden="true" />
      <Button
        position="fixed"
        zIndex="max"
        bottom="calc(12px + env(safe-area-inset-bottom, 0px))"
        left={{ base: 'calc(12px + env(safe-area-inset-left, 0px))', md: 'calc(16px + env(safe-area-inset-left, 0px))' }}
        size="sm"
        variant="outline"
        bg="portal.white"
        color="portal.text"
        borderColor="portal.border"
        borderRadius="full"
        boxShadow="sm"
        // A modal dialog turns pointer events off outside itself; this control must still take the click.
        pointerEvents="auto"
        aria-describedby={hintId}
        title="Leave this site now (or press Esc twice)"
        onClick={leaveQuickly}
        data-testid="quick-exit"
      >
        <DoorOpen size={18} aria-hidden="true" />
        Leave quickly
        <VisuallyHidden id={hintId}>
          Opens a weather site in this tab and takes this portal out of the Back button. Shortcut: press Escape twice. It cannot clear the
          browser's own history list.
        </VisuallyHidden>
      </Button>
    </>
  );
}
