import { Button, Field, Input, InputGroup, NativeSelect, SimpleGrid, Stack } from '@chakra-ui/react';
import { type FormEvent, useRef, useState } from 'react';
import { formatMoney } from '../../../../domain/format.ts';
import { actionLabels } from '../../../../domain/lifecycle.ts';
import { centsFromDollars } from '../../../../domain/money.ts';
import { type PaymentMethod, paymentMethodLabel, paymentMethods } from '../../../../domain/staff.ts';
import { DateEntryInput } from '../../../components/date-entry-input.tsx';
import { dateEntryError, dateEntryToIso, formatDateEntry } from '../../../lib/date-entry.ts';
import { todayIso } from '../shared/format.ts';
import { type ActionFormProps, useFormSend } from './action-props.ts';
import { parseMoney } from '../shared/parse-money.ts';
import { type PaymentFields, sendPayment } from './request-api.ts';

type Errors = Partial<Record<'amount' | 'method' | 'paidAt' | 'reference', string>>;

/** `paidAt` is the day as typed, DD/MM/YYYY (lib/date-entry.ts); it is sent as the API's YYYY-MM-DD. */
const emptyValues = () => ({ amount: '', method: '' as PaymentMethod | '', paidAt: formatDateEntry(Date.now()), reference: '' });

/** Checks the form as the server will, plus the one rule only this screen knows: no more than is left to pay. */
export function validatePayment(values: ReturnType<typeof emptyValues>, leftToPay: number | null): { errors: Errors; fields?: PaymentFields } {
  const errors: Errors = {};
  const amount = parseMoney(values.amount, 'Amount');
  if (!amount.ok) errors.amount = amount.error;
  else if (leftToPay !== null && centsFromDollars(amount.value) > centsFromDollars(leftToPay)) errors.amount = `Amount cannot be more than the ${formatMoney(leftToPay)} left to pay`;
  if (!values.method) errors.method = 'Method is required';
  const paidAt = dateEntryToIso(values.paidAt);
  if (values.paidAt.trim() === '') errors.paidAt = 'Payment date is required';
  else if (!paidAt) errors.paidAt = dateEntryError('Payment date');
  // YYYY-MM-DD strings sort as the days they name.
  else if (paidAt > todayIso()) errors.paidAt = 'Payment date cannot be in the future';
  const reference = values.reference.trim();
  if (reference.length > 200) errors.reference = 'Reference must be at most 200 characters';
  if (Object.keys(errors).length > 0 || !amount.ok || !values.method) return { errors };
  return { errors, fields: { amount: amount.value, method: values.method, paidAt, reference } };
}

/** Records money received for the request, with its invoice made by the server. */
export function PaymentForm({ request, busy, perform }: ActionFormProps) {
  const [values, setValues] = useState(emptyValues);
  const [errors, setErrors] = useState<Errors>({});
  const { sending, send } = useFormSend(perform);
  // One Idempotency-Key per submission: the same body sent again (a retry after a lost answer, a double
  // click) reuses it and the server records one payment; a changed body is a new submission.
  const lastKey = useRef<{ body: string; key: string } | null>(null);
  const keyFor = (body: object) => {
    const signature = JSON.stringify(body);
    if (lastKey.current?.body !== signature) lastKey.current = { body: signature, key: crypto.randomUUID() };
    return lastKey.current.key;
  };
  const set = (key: keyof ReturnType<typeof emptyValues>) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = validatePayment(values, request.leftToPay);
    setErrors(checked.errors);
    const fields = checked.fields;
    if (!fields) return;
    const reset = () => {
      lastKey.current = null;
      setValues(emptyValues());
    };
    const result = await send({
      label: actionLabels.payment,
      success: 'Payment recorded successfully.',
      fields: ['amount', 'method', 'paidAt', 'reference'],
      send: (version) => {
        const body = { version, ...fields };
        return sendPayment(request.id, body, keyFor(body));
      },
      onDone: reset,
      onDiscard: reset,
    });
    if (result && result !== 'ok') setErrors({ [result.field]: result.message });
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="3">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="3">
          <Field.Root required invalid={!!errors.amount}>
            <Field.Label>
              Amount <Field.RequiredIndicator />
            </Field.Label>
            <InputGroup startElement="$">
              <Input inputMode="decimal" autoComplete="off" value={values.amount} onChange={(e) => set('amount')(e.target.value)} placeholder="0.00" />
            </InputGroup>
            {errors.amount ? <Field.ErrorText>{errors.amount}</Field.ErrorText> : <Field.HelperText>{formatMoney(request.leftToPay)} left to pay</Field.HelperText>}
          </Field.Root>
          <Field.Root required invalid={!!errors.method}>
            <Field.Label>
              Method <Field.RequiredIndicator />
            </Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={values.method} onChange={(e) => set('method')(e.target.value)}>
                <option value="" disabled>
                  Select a method
                </option>
                {paymentMethods.map((m) => (
                  <option key={m} value={m}>
                    {paymentMethodLabel[m]}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
            <Field.ErrorText>{errors.method}</Field.ErrorText>
          </Field.Root>
          <Field.Root required invalid={!!errors.paidAt}>
            <Field.Label>
              Payment date <Field.RequiredIndicator />
            </Field.Label>
            <DateEntryInput value={values.paidAt} onChange={set('paidAt')} />
            <Field.ErrorText>{errors.paidAt}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={!!errors.reference}>
            <Field.Label>Reference</Field.Label>
            <Input value={values.reference} maxLength={200} autoComplete="off" onChange={(e) => set('reference')(e.target.value)} placeholder="Transfer or transaction id" />
            <Field.ErrorText>{errors.reference}</Field.ErrorText>
          </Field.Root>
        </SimpleGrid>
        <Button type="submit" colorPalette="brand" loading={sending} disabled={busy} alignSelf="start">
          {actionLabels.payment}
        </Button>
      </Stack>
    </form>
  );
}
