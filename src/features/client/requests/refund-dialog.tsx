import { Button, Field, RadioGroup, Stack, Textarea } from '@chakra-ui/react';
import { useState } from 'react';
import { refundTypeLabel, refundTypes } from '../../../../domain/enums.ts';
import { texts } from '../../../../domain/texts.ts';
import { queueRefund } from '../../../lib/commands.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { useQueuedCommand } from '../../../lib/use-queued-command.ts';
import { Popup } from '../../../components/popup.tsx';
import { toolOf } from './use-requests.ts';

type RefundType = (typeof refundTypes)[number];

/** Request Refund: reason and type are both required; the refund goes through the outbox. */
export function RefundDialog({ request, onClose }: { request: LocalRequest | null; onClose(): void }) {
  return (
    <Popup open={request !== null} onClose={onClose} title="Request Refund">
      {request && <RefundForm key={request.id} request={request} onClose={onClose} />}
    </Popup>
  );
}

function RefundForm({ request, onClose }: { request: LocalRequest; onClose(): void }) {
  const db = useReplica();
  const [reason, setReason] = useState('');
  const [type, setType] = useState<RefundType | ''>('');
  const [touched, setTouched] = useState(false);
  const { queuing, queue } = useQueuedCommand();
  const reasonError = reason.trim() === '' ? 'Reason is required' : null;
  const typeError = type === '' ? 'Refund type is required' : null;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (reasonError || typeError || type === '') return;
    const refund = { tool: request.productRequestType, processId: request.id, refundRequestType: type, reason: reason.trim() };
    const toolName = toolOf(request)?.header ?? request.productRequestType;
    if (await queue(() => queueRefund(db, refund, toolName), { sent: texts.refundSent })) onClose();
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="5">
        <Field.Root required invalid={touched && !!reasonError}>
          <Field.Label>
            Reason <Field.RequiredIndicator />
          </Field.Label>
          <Textarea value={reason} onChange={(e) => setReason(e.target.value)} rows={4} maxLength={1000} />
          <Field.ErrorText>{reasonError}</Field.ErrorText>
        </Field.Root>
        <Field.Root required invalid={touched && !!typeError}>
          <RadioGroup.Root
            value={type}
            onValueChange={(e) => setType((e.value ?? '') as RefundType | '')}
            colorPalette="brand"
            aria-label="Refund type"
          >
            <RadioGroup.Label mb="2" display="block" fontWeight="medium">
              Refund type <Field.RequiredIndicator />
            </RadioGroup.Label>
            <Stack direction={{ base: 'column', sm: 'row' }} gap="5">
              {refundTypes.map((value) => (
                <RadioGroup.Item key={value} value={value}>
                  <RadioGroup.ItemHiddenInput />
                  <RadioGroup.ItemIndicator />
                  <RadioGroup.ItemText>{refundTypeLabel[value]}</RadioGroup.ItemText>
                </RadioGroup.Item>
              ))}
            </Stack>
          </RadioGroup.Root>
          <Field.ErrorText>{typeError}</Field.ErrorText>
        </Field.Root>
        <Stack direction="row" justify="flex-end" gap="3">
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="brand" loading={queuing}>
            Send
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
