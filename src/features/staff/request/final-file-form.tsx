import { Button, Field, Input, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useRef, useState } from 'react';
import { actionLabels } from '../../../../domain/lifecycle.ts';
import { formatSize } from '../shared/format.ts';
import { type ActionFormProps, useFormSend } from './action-props.ts';
import { sendFinalFile } from './request-api.ts';

/** Uploads the final report (or replaces it); the client can download it once the request is paid in full. */
export function FinalFileForm({ request, busy, perform }: ActionFormProps) {
  const [file, setFile] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  const input = useRef<HTMLInputElement>(null);
  const { sending, send } = useFormSend(perform);
  const replacing = request.finalFileId !== null;

  const clear = () => {
    setFile(null);
    if (input.current) input.current.value = '';
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!file) {
      setError('Choose the final report to upload');
      return;
    }
    setError(undefined);
    const chosen = file;
    const result = await send({
      label: actionLabels.deliver,
      success: 'Final file uploaded successfully.',
      fields: ['file'],
      send: (version) => sendFinalFile(request.id, chosen, version),
      onDone: clear,
      onDiscard: clear,
    });
    if (result && result !== 'ok') setError(result.message);
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="3">
        {replacing && <Text color="fg.muted">A final file is already delivered; a new one replaces it and the old one stays in the list.</Text>}
        <Field.Root required invalid={!!error}>
          <Field.Label>
            Final report <Field.RequiredIndicator />
          </Field.Label>
          <Input
            ref={input}
            type="file"
            p="1.5"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setError(undefined);
            }}
          />
          {file && !error && (
            <Field.HelperText>
              {file.name} · {formatSize(file.size)}
            </Field.HelperText>
          )}
          <Field.ErrorText>{error}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" colorPalette="brand" loading={sending} loadingText="Uploading…" disabled={busy} alignSelf="start">
          {actionLabels.deliver}
        </Button>
      </Stack>
    </form>
  );
}
