import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { aboveQuickExit } from './theme-tokens.ts';

export interface PopupProps {
  open: boolean;
  onClose(): void;
  title: string;
  children: ReactNode;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg' | 'xl';
  /** 'alertdialog' for a question that interrupts (the sign-out warning). */
  role?: 'dialog' | 'alertdialog';
}

/** The app's dialogs share one frame: full screen on phones, centred and scrollable on desktop. */
export function Popup({ open, onClose, title, children, footer, size = 'md', role = 'dialog' }: PopupProps) {
  return (
    <Dialog.Root
      role={role}
      open={open}
      onOpenChange={(e) => {
        if (!e.open) onClose();
      }}
      size={{ base: 'full', md: size }}
      placement="center"
      scrollBehavior="inside"
      lazyMount
      unmountOnExit
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          {/* The phone size 'full' sets min-height: 100dvh, which the desktop size does not undo. On phones the
              frame ends above "Leave quickly" (fixed bottom left, above every layer), so it never covers the
              footer's buttons or the body's last line. */}
          <Dialog.Content minH={{ base: '100dvh', md: 'auto' }} pb={{ base: aboveQuickExit, md: '0' }}>
            <Dialog.Header pe="12">
              <Dialog.Title fontSize="1.125rem">{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>{children}</Dialog.Body>
            {footer && <Dialog.Footer>{footer}</Dialog.Footer>}
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close" />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
