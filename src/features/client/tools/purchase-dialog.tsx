import { Box, Button, Field, Input, NativeSelect, Stack, Text, Textarea } from '@chakra-ui/react';
import { useMachine } from '@xstate/react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { fromPromise } from 'xstate';
import { capitalise } from '../../../../domain/format.ts';
import { BIGTEXT_MAX, BIGTEXT_ROWS, type ToolDefinition, type ToolField } from '../../../../domain/tools.ts';
import { DateEntryInput } from '../../../components/date-entry-input.tsx';
import { EditRefused } from '../../../components/edit-refused.tsx';
import { Popup } from '../../../components/popup.tsx';
import { type CommandEditorProps, saveAndSendLabel, useSaveEdit } from '../../../lib/sync/commands/editor-context.ts';
import { toolOfCommand } from '../../../lib/sync/commands/kinds.ts';
import { type PurchaseDraft, type SubmitOutcome, purchaseMachine } from './purchase.machine.ts';
import { toDraft, toPurchaseBody, validateDraft } from './purchase-values.ts';
import { TermsDialog } from './terms-dialog.tsx';

/** Files a purchase may carry: documents and screenshots (the server checks the content too). */
export const FILE_ACCEPT = 'application/pdf,image/png,image/jpeg,image/webp,image/gif';

export interface PurchaseDialogProps {
  tool: ToolDefinition;
  onClose(): void;
  /** Queues the draft and tells the user how it went; rejects when it could not (the terms stay open to retry). */
  submit(draft: PurchaseDraft): Promise<SubmitOutcome>;
  onSubmitted(outcome: SubmitOutcome): void;
}

/**
 * The purchase form of a tool, rendered from the catalogue, then the terms popup. Mounted while
 * the flow is open; the purchase machine keeps the draft between the two popups.
 */
export function PurchaseDialog({ tool, onClose, submit, onSubmitted }: PurchaseDialogProps) {
  const submitRef = useRef(submit);
  submitRef.current = submit;
  const machine = useMemo(
    () => purchaseMachine.provide({ actors: { submitPurchase: fromPromise(({ input }: { input: PurchaseDraft }) => submitRef.current(input)) } }),
    [],
  );
  const [state, send] = useMachine(machine, { input: {} });
  const done = useRef(false);

  useEffect(() => {
    if (state.matches('success') && !done.current) {
      done.current = true;
      onSubmitted(state.context.outcome ?? 'sent');
    }
  }, [state, onSubmitted]);

  const inTerms = state.matches('terms') || state.matches('submitting') || state.matches('failure');
  return (
    <>
      <Popup open={state.matches('form')} onClose={onClose} title={`New ${tool.header} Request`} size="lg">
        <PurchaseForm
          tool={tool}
          initial={{ values: state.context.values, files: state.context.files }}
          onCancel={onClose}
          onContinue={(draft) => send({ type: 'CONTINUE', ...draft })}
        />
      </Popup>
      <TermsDialog
        open={inTerms}
        submitting={state.matches('submitting')}
        onBack={() => send({ type: 'BACK' })}
        onSubmit={() => send({ type: 'SUBMIT' })}
        onClose={onClose}
      />
    </>
  );
}

/**
 * The outbox's Edit of a refused purchase: the tool's form from the catalogue, prefilled with what was sent (the
 * attached files kept unless replaced), checked as a new order is. The terms were accepted with the first send.
 */
export function PurchaseEditDialog({ command, body, onSave, onClose }: CommandEditorProps<'purchase'>) {
  const tool = toolOfCommand(command);
  const { busy, refused, save } = useSaveEdit(onSave);
  if (!tool) return null;
  return (
    <Popup open onClose={onClose} title={`${tool.header} Request`} size="lg">
      <PurchaseForm
        tool={tool}
        initial={toDraft(tool, body)}
        submitLabel={saveAndSendLabel}
        busy={busy}
        onCancel={onClose}
        onContinue={(draft) => void save(toPurchaseBody(tool, draft))}
      />
      <EditRefused text={refused} />
    </Popup>
  );
}

function PurchaseForm({
  tool,
  initial,
  submitLabel = 'Continue',
  busy = false,
  onCancel,
  onContinue,
}: {
  tool: ToolDefinition;
  initial: PurchaseDraft;
  submitLabel?: string;
  busy?: boolean;
  onCancel(): void;
  onContinue(draft: PurchaseDraft): void;
}) {
  const [values, setValues] = useState<Record<string, string>>(initial.values);
  const [files, setFiles] = useState<Record<string, File | undefined>>(initial.files);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tried, setTried] = useState(false);

  const setValue = (key: string, value: string) => {
    const next = { ...values, [key]: value };
    setValues(next);
    if (tried) setErrors(validateDraft(tool, { values: next, files }));
  };

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setTried(true);
    const found = validateDraft(tool, { values, files });
    setErrors(found);
    if (Object.keys(found).length === 0) onContinue({ values, files });
  }

  return (
    <form onSubmit={submit} noValidate aria-label={`${tool.header} request form`}>
      <Stack gap="4">
        {tool.formFields.map((field) => (
          <FormField
            key={field.backendHeader}
            field={field}
            value={values[field.backendHeader] ?? ''}
            file={files[field.backendHeader]}
            error={errors[field.backendHeader]}
            onChange={(v) => setValue(field.backendHeader, v)}
            onFile={(f) => setFiles({ ...files, [field.backendHeader]: f })}
          />
        ))}
        <Stack direction="row" justify="flex-end" gap="3" pt="2">
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="brand" loading={busy}>
            {submitLabel}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}

interface FormFieldProps {
  field: ToolField;
  value: string;
  file: File | undefined;
  error: string | undefined;
  onChange(value: string): void;
  onFile(file: File | undefined): void;
}

function FormField({ field, value, file, error, onChange, onFile }: FormFieldProps) {
  const required = field.type !== 'date' && field.type !== 'file';
  return (
    <Field.Root required={required} invalid={!!error}>
      <Field.Label>
        {field.header}
        {required && <Field.RequiredIndicator />}
      </Field.Label>
      <FieldInput field={field} value={value} file={file} onChange={onChange} onFile={onFile} />
      {field.type === 'bigtext' && (
        <Text fontSize="xs" color="fg.muted" alignSelf="flex-end" aria-live="polite">
          {value.length}/{BIGTEXT_MAX}
        </Text>
      )}
      {field.notes && <Field.HelperText>{field.notes}</Field.HelperText>}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

/** Options are shown capitalised; acronyms (ETH, BTC, TRON) are already written as they should read. */
export function optionLabel(option: string): string {
  return option === option.toUpperCase() ? option : capitalise(option);
}

function FieldInput({ field, value, file, onChange, onFile }: Omit<FormFieldProps, 'error'>) {
  switch (field.type) {
    case 'text':
      return <Input value={value} onChange={(e) => onChange(e.target.value)} maxLength={300} />;
    case 'number':
      return <Input type="number" inputMode="decimal" min={0} step="any" value={value} onChange={(e) => onChange(e.target.value)} />;
    case 'date':
      return <DateEntryInput value={value} onChange={onChange} />;
    case 'bigtext':
      return <Textarea value={value} onChange={(e) => onChange(e.target.value)} maxLength={BIGTEXT_MAX} rows={BIGTEXT_ROWS} />;
    case 'select':
      return (
        <NativeSelect.Root>
          <NativeSelect.Field value={value} onChange={(e) => onChange(e.target.value)}>
            <option value="" disabled>
              Select {field.header.toLowerCase()}
            </option>
            {(field.options ?? []).map((option) => (
              <option key={option} value={option}>
                {optionLabel(option)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
      );
    case 'file':
      return (
        <Box width="100%">
          <Input
            type="file"
            accept={FILE_ACCEPT}
            p="1.5"
            height="auto"
            onChange={(e) => onFile(e.target.files?.[0] ?? undefined)}
          />
          {/* A file input cannot be refilled after Go back, so the kept file is named here. */}
          {file && (
            <Text fontSize="xs" color="fg.muted" mt="1" data-testid="selected-file">
              Selected: {file.name}
            </Text>
          )}
        </Box>
      );
  }
}
