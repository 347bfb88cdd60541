import { CloseButton, Dialog, Portal } from '@chakra-ui/react';
import type { ReactNode } from 'react';

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
          {/* The phone size 'full' sets min-height: 100dvh, which the desktop size does not undo. */}
          <Dialog.Content minH={{ base: '100dvh', md: 'auto' }}>
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
