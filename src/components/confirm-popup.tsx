import { Button, Dialog } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Popup } from './popup.tsx';

export interface ConfirmPopupProps {
  open: boolean;
  title: string;
  /** What will happen; a string becomes the dialog's description for screen readers. */
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  /** An alert dialog: the question interrupts something the user started (signing out with unsent work). */
  alert?: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** Asks before a step that cannot be undone from here: approval, status moves, roles, a sign-out that loses data. */
export function ConfirmPopup({ open, title, children, confirmLabel, danger = false, busy = false, alert = false, onConfirm, onClose }: ConfirmPopupProps) {
  return (
    <Popup
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
      role={alert ? 'alertdialog' : 'dialog'}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button colorPalette={danger ? 'red' : 'brand'} loading={busy} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </>
      }
    >
      {typeof children === 'string' ? <Dialog.Description>{children}</Dialog.Description> : children}
    </Popup>
  );
}
