import { Button, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Popup } from '../../../components/popup.tsx';

export interface ConfirmPopupProps {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm(): void;
  onClose(): void;
}

/** Asks before a step the client will see and staff cannot undo from here (approval, status moves, roles). */
export function ConfirmPopup({ open, title, children, confirmLabel, danger = false, busy = false, onConfirm, onClose }: ConfirmPopupProps) {
  return (
    <Popup
      open={open}
      onClose={onClose}
      title={title}
      size="sm"
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
      {typeof children === 'string' ? <Text>{children}</Text> : children}
    </Popup>
  );
}
