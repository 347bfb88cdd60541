import { Button, Field, Stack, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { saveAndSendLabel, useSaveEdit } from '../lib/sync/commands/editor-context.ts';
import { EditRefused } from './edit-refused.tsx';
import { Popup } from './popup.tsx';

export interface TextEditDialogProps {
  title: string;
  /** The label of the feature's own field ("Your reply", "New internal note"). */
  label: string;
  initial: string;
  max: number;
  /** The feature's check of the text (its schema's words); null when it may be saved. */
  errorOf(text: string): string | null;
  onSave(text: string): Promise<void>;
  onClose(): void;
}

/** The outbox's Edit of a one-text write (a reply, a note): the feature's field and check, prefilled. */
export function TextEditDialog({ title, label, initial, max, errorOf, onSave, onClose }: TextEditDialogProps) {
  const [text, setText] = useState(initial);
  const [touched, setTouched] = useState(false);
  const { busy, refused, save } = useSaveEdit(onSave);
  const error = touched ? errorOf(text) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (!errorOf(text)) await save(text.trim());
  }

  return (
    <Popup open onClose={onClose} title={title}>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="3">
          <Field.Root required invalid={!!error}>
            <Field.Label>{label}</Field.Label>
            <Textarea value={text} maxLength={max} rows={4} onChange={(e) => setText(e.target.value)} />
            {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>{`${text.length}/${max}`}</Field.HelperText>}
          </Field.Root>
          <Stack direction="row" justify="flex-end" gap="3">
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" colorPalette="brand" loading={busy}>
              {saveAndSendLabel}
            </Button>
          </Stack>
        </Stack>
      </form>
      <EditRefused text={refused} />
    </Popup>
  );
}
