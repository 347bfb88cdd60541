import { Button, Field, Fieldset, Input, NativeSelect, Stack } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { fraudTypeLabel, fraudTypes } from '../../../../domain/enums.ts';
import { InitialFormFields } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { DateEntryInput } from '../../../components/date-entry-input.tsx';
import { EditRefused } from '../../../components/edit-refused.tsx';
import { PageCard } from '../../../components/page-card.tsx';
import { Popup } from '../../../components/popup.tsx';
import { type CommandEditorProps, saveAndSendLabel, useSaveEdit } from '../../../lib/sync/commands/editor-context.ts';
import { queueInitialForm } from '../../../lib/sync/commands/kinds.ts';
import {
  dateEntryError,
  formatDateEntry,
  formatTimeEntry,
  parseDateEntry,
  parseDateTimeEntry,
  parseTimeEntry,
  timeEntryError,
  timePlaceholder,
} from '../../../lib/date-entry.ts';
import { displayName, useProfile, useReplica } from '../../../lib/replica.ts';
import { isAccepted, useQueuedCommand } from '../../../lib/sync/commands/use-queued-command.ts';

type FieldKey = 'moneyLost' | 'lastFundsTransfer' | 'fraudType' | 'fraudUrl';
type Errors = Partial<Record<FieldKey, string>>;
/** What the inputs hold: lastFundsTransfer is the day typed DD/MM/YYYY, lastTransferTime its HH:MM. */
export type InitialFormValues = Record<FieldKey | 'lastTransferTime', string>;

const labels: Record<FieldKey, string> = {
  moneyLost: 'Money lost',
  lastFundsTransfer: 'Date and time of last transfer',
  fraudType: 'Fraud type',
  fraudUrl: 'Fraud URL',
};
const dateLabel = 'Date of last transfer';
const timeLabel = 'Time of last transfer';

/**
 * The form values as the schema wants them: money as a number, the day and time as a timestamp (spec section 5),
 * both typed in the app's format (DD/MM/YYYY, 24-hour HH:MM; lib/date-entry.ts), in the user's local time.
 */
export function toInitialForm(values: InitialFormValues, name: string): unknown {
  return {
    moneyLost: values.moneyLost.trim() === '' ? undefined : Number(values.moneyLost),
    lastFundsTransfer: parseDateTimeEntry(values.lastFundsTransfer, values.lastTransferTime) ?? undefined,
    fraudType: values.fraudType || undefined,
    fraudUrl: values.fraudUrl,
    name,
  };
}

/** The day and time fields said in the user's terms: which part is missing or cannot be read. */
function transferTimeError(values: InitialFormValues): string | undefined {
  const date = values.lastFundsTransfer.trim();
  const time = values.lastTransferTime.trim();
  if (date === '' && time === '') return `${labels.lastFundsTransfer} is required`;
  if (date === '') return `${dateLabel} is required`;
  if (parseDateEntry(date) === null) return dateEntryError(dateLabel);
  if (time === '') return `${timeLabel} is required`;
  if (parseTimeEntry(time) === null) return timeEntryError(timeLabel);
  return undefined;
}

/** Every field error of the typed values, in the words of the fields' labels. */
export function formErrors(values: InitialFormValues, name: string): Errors {
  const errors = fieldErrors(toInitialForm(values, name));
  const transfer = transferTimeError(values);
  if (transfer) errors.lastFundsTransfer = transfer;
  return errors;
}

/** The schema's messages name the payload keys; the user sees the field labels instead. */
export function fieldErrors(value: unknown): Errors {
  const result = InitialFormFields.safeParse(value);
  if (result.success) return {};
  const errors: Errors = {};
  for (const issue of result.error.issues) {
    const key = issue.path[0] as FieldKey;
    if (!(key in labels) || errors[key]) continue;
    if (key === 'fraudType') errors[key] = `${labels.fraudType} is required`;
    else if (key === 'moneyLost' && issue.code === 'invalid_type') errors[key] = `${labels.moneyLost} must be a number`;
    else errors[key] = issue.message.replace(key, labels[key]);
  }
  return errors;
}

/** The form's strings for a stored initial form: the outbox's Edit opens prefilled with them. */
export function toFormValues(form: InitialFormFields): InitialFormValues {
  return {
    moneyLost: String(form.moneyLost),
    lastFundsTransfer: formatDateEntry(form.lastFundsTransfer),
    lastTransferTime: formatTimeEntry(form.lastFundsTransfer),
    fraudType: form.fraudType,
    fraudUrl: form.fraudUrl,
  };
}

const emptyValues: InitialFormValues = { moneyLost: '', lastFundsTransfer: '', lastTransferTime: '', fraudType: '', fraudUrl: '' };

/**
 * /initial-form: the one-time form (its route sends a user who filled it to /). It goes through the outbox,
 * so it is accepted offline too.
 */
export function InitialFormPage() {
  const db = useReplica();
  const profile = useProfile();
  const navigate = useNavigate();
  const { queuing, queue } = useQueuedCommand();

  const submit = async (form: InitialFormFields) => {
    const write = () => queueInitialForm(db, db.uid, form);
    // Refused by the server: the user stays on the form with the server's words instead of being sent away.
    if (isAccepted(await queue(write, { sent: texts.initialFormFilled, failed: texts.initialFormFailed }))) await navigate({ to: '/' });
  };

  return (
    <PageCard title="Initial form" intro="Tell us about the fraud so that we can start working on your case." maxWidth="720px">
      <InitialForm initial={emptyValues} name={displayName(profile)} busy={queuing} submitLabel="Submit" onSubmit={submit} />
    </PageCard>
  );
}

/** The outbox's Edit of a refused initial form: the same form, prefilled; the name stays the one it was sent with. */
export function InitialFormEditDialog({ body, onSave, onClose }: CommandEditorProps<'initialForm'>) {
  const { busy, refused, save } = useSaveEdit(onSave);
  return (
    <Popup open onClose={onClose} title="Initial form">
      <InitialForm
        initial={toFormValues(body.initialForm)}
        name={body.initialForm.name}
        busy={busy}
        submitLabel={saveAndSendLabel}
        onSubmit={async (initialForm) => void (await save({ initialForm }))}
      />
      <EditRefused text={refused} />
    </Popup>
  );
}

function InitialForm({
  initial,
  name,
  busy,
  submitLabel,
  onSubmit,
}: {
  initial: InitialFormValues;
  name: string;
  busy: boolean;
  submitLabel: string;
  onSubmit(form: InitialFormFields): Promise<void>;
}) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors>({});

  const set = (key: keyof InitialFormValues) => (value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    const field: FieldKey = key === 'lastTransferTime' ? 'lastFundsTransfer' : key;
    setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const payload = toInitialForm(values, name);
    setErrors(formErrors(values, name));
    // The schema that gave the errors gives the form's values as the command carries them.
    const parsed = InitialFormFields.safeParse(payload);
    if (parsed.success) await onSubmit(parsed.data);
  };

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="4">
        <Field.Root invalid={!!errors.moneyLost}>
          <Field.Label>{labels.moneyLost}</Field.Label>
          <Input type="number" inputMode="decimal" min={0} step="any" value={values.moneyLost} onChange={(e) => set('moneyLost')(e.target.value)} />
          <Field.ErrorText>{errors.moneyLost}</Field.ErrorText>
        </Field.Root>
        {/* Two text fields rather than datetime-local, whose mm/dd/yyyy and AM/PM follow the browser's locale. */}
        <Fieldset.Root invalid={!!errors.lastFundsTransfer}>
          <Fieldset.Legend fontSize="sm" fontWeight="medium" color="fg">
            {labels.lastFundsTransfer}
          </Fieldset.Legend>
          <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
            <Field.Root invalid={!!errors.lastFundsTransfer} required flex="2">
              <Field.Label fontWeight="normal">{dateLabel}</Field.Label>
              <DateEntryInput value={values.lastFundsTransfer} onChange={set('lastFundsTransfer')} />
            </Field.Root>
            <Field.Root invalid={!!errors.lastFundsTransfer} required flex="1">
              <Field.Label fontWeight="normal">{timeLabel}</Field.Label>
              <Input
                type="text"
                inputMode="numeric"
                autoComplete="off"
                placeholder={timePlaceholder}
                maxLength={5}
                value={values.lastTransferTime}
                onChange={(e) => set('lastTransferTime')(e.target.value)}
              />
            </Field.Root>
          </Stack>
          <Fieldset.ErrorText>{errors.lastFundsTransfer}</Fieldset.ErrorText>
        </Fieldset.Root>
        <Field.Root invalid={!!errors.fraudType} required>
          <Field.Label>{labels.fraudType}</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field placeholder="Select the fraud type" value={values.fraudType} onChange={(e) => set('fraudType')(e.target.value)}>
              {fraudTypes.map((t) => (
                <option key={t} value={t}>
                  {fraudTypeLabel[t]}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
          <Field.ErrorText>{errors.fraudType}</Field.ErrorText>
        </Field.Root>
        <Field.Root invalid={!!errors.fraudUrl} required>
          <Field.Label>{labels.fraudUrl}</Field.Label>
          <Input type="text" inputMode="url" autoComplete="off" value={values.fraudUrl} onChange={(e) => set('fraudUrl')(e.target.value)} />
          <Field.ErrorText>{errors.fraudUrl}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" colorPalette="brand" loading={busy} alignSelf="flex-start">
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}
