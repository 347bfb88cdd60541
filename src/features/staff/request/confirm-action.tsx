import { Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { type StaffAction, actionLabels } from '../../../../domain/lifecycle.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { type ActionFormProps, useFormSend } from './action-props.ts';
import { sendContractSigned, sendTransition } from './request-api.ts';

type ConfirmActionName = Extract<StaffAction, 'start' | 'complete' | 'contract'>;

/** The actions with nothing to fill in: what it does, and a confirmation because the client sees it at once. */
const details: Record<ConfirmActionName, { description: string; question: string; confirm: string; success: string }> = {
  start: {
    description: 'Moves the request to In Progress: the work on the case begins.',
    question: 'Start work on this request?',
    confirm: 'Yes, start work',
    success: 'Work started successfully.',
  },
  complete: {
    description: 'Moves the request to Done: the client can download the final file once it is paid in full.',
    question: 'Mark this request as Done?',
    confirm: 'Yes, mark as Done',
    success: 'Request marked as Done.',
  },
  contract: {
    description: 'Records that the client has signed the contract.',
    question: 'Mark the contract as signed?',
    confirm: 'Yes, it is signed',
    success: 'Contract marked as signed.',
  },
};

export function ConfirmAction({ action, request, busy, perform }: ActionFormProps & { action: ConfirmActionName }) {
  const [open, setOpen] = useState(false);
  const { sending, send } = useFormSend(perform);
  const d = details[action];

  async function confirm() {
    await send({
      label: actionLabels[action],
      success: d.success,
      send: (version) =>
        action === 'contract'
          ? sendContractSigned(request.id, version)
          : sendTransition(request.id, { to: action === 'start' ? 'In Progress' : 'Done', version }),
    });
    setOpen(false);
  }

  return (
    <Stack gap="3">
      <Text color="fg.muted">{d.description}</Text>
      <Button colorPalette="brand" variant={action === 'contract' ? 'outline' : 'solid'} disabled={busy} alignSelf="start" onClick={() => setOpen(true)}>
        {actionLabels[action]}
      </Button>
      <ConfirmPopup open={open} title={d.question} confirmLabel={d.confirm} busy={sending} onConfirm={() => void confirm()} onClose={() => setOpen(false)}>
        {d.description}
      </ConfirmPopup>
    </Stack>
  );
}
