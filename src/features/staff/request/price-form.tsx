import { Button, Checkbox, Field, Input, InputGroup, Stack } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { actionLabels } from '../../../../domain/lifecycle.ts';
import { type ActionFormProps, useFormSend } from './action-props.ts';
import { parseMoney } from '../shared/parse-money.ts';
import { sendTransition } from './request-api.ts';

/** Pending → Awaiting Payment: the price, and whether the contract is signed already. */
export function PriceForm({ request, busy, perform }: ActionFormProps) {
  const [price, setPrice] = useState('');
  const [signed, setSigned] = useState(request.contractSigned);
  const [error, setError] = useState<string | undefined>();
  const { sending, send } = useFormSend(perform);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = parseMoney(price, 'Price');
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    const totalAmount = parsed.value;
    const contractSigned = signed;
    const result = await send({
      label: actionLabels.price,
      success: 'Price set successfully.',
      fields: ['totalAmount'],
      send: (version) => sendTransition(request.id, { to: 'Waiting for actions', version, totalAmount, contractSigned }),
      onDone: () => setPrice(''),
      onDiscard: () => setPrice(''),
    });
    if (result && result !== 'ok') setError(result.message);
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="3">
        <Field.Root required invalid={!!error}>
          <Field.Label>
            Price <Field.RequiredIndicator />
          </Field.Label>
          <InputGroup startElement="$">
            <Input inputMode="decimal" autoComplete="off" value={price} onChange={(e) => setPrice(e.target.value)} placeholder="0.00" />
          </InputGroup>
          <Field.ErrorText>{error}</Field.ErrorText>
        </Field.Root>
        <Checkbox.Root checked={signed} onCheckedChange={(e) => setSigned(e.checked === true)} colorPalette="brand">
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Contract signed</Checkbox.Label>
        </Checkbox.Root>
        <Button type="submit" colorPalette="brand" loading={sending} disabled={busy} alignSelf="start">
          {actionLabels.price}
        </Button>
      </Stack>
    </form>
  );
}
