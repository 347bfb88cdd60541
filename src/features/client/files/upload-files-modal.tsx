import { useRef, useState } from 'react';
import { Box, Button, FileUpload, HStack, Progress, Stack, Text } from '@chakra-ui/react';
import { CircleAlert, CircleCheck, Upload } from 'lucide-react';
import { texts } from '../../../../domain/texts.ts';
import { Popup } from '../../../components/popup.tsx';
import { useSyncEngine } from '../../../lib/sync/use-sync-engine.ts';
import { getIdToken } from '../../../lib/firebase.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { type UploadOutcome, formatSize, uploadFile } from './upload-file.ts';

type EntryStatus = 'ready' | 'uploading' | 'done' | 'error';

/** Enough for a batch of screenshots and statements; the zone refuses more at once. */
const maxFiles = 20;

/** Spec: the answer's code SUCCESS shows its message; failures show the server's own text, each once. */
function report(outcomes: UploadOutcome[]): void {
  const success = outcomes.find((o) => o.ok);
  if (success?.ok && success.code === 'SUCCESS') showMessage(success.message, 'success');
  const errors = new Set(outcomes.flatMap((o) => (o.ok ? [] : [o.network ? texts.needsConnection : o.message])));
  for (const message of errors) showMessage(message, 'error');
}

interface Entry {
  key: string;
  file: File;
  progress: number;
  status: EntryStatus;
  error?: string;
}

/**
 * Upload File: general files go straight to POST /api/user/files, one request per file so that each
 * gets its own progress bar and its own result. Online-only: the outbox does not carry large blobs.
 */
export function UploadFilesModal({ open, onClose }: { open: boolean; onClose(): void }) {
  const engine = useSyncEngine();
  const [entries, setEntries] = useState<Entry[]>([]);
  const { running: busy, run } = useOnlineAction();
  const abortRef = useRef<AbortController | null>(null);
  // Remounting the drop zone empties its file list once the chosen files are sent.
  const [pickerKey, setPickerKey] = useState(0);

  const patch = (key: string, change: Partial<Entry>) =>
    setEntries((list) => list.map((e) => (e.key === key ? { ...e, ...change } : e)));

  function close() {
    abortRef.current?.abort();
    abortRef.current = null;
    setEntries([]);
    onClose();
  }

  function choose(files: File[]) {
    setEntries(files.map((file, i) => ({ key: `${Date.now()}-${i}-${file.name}`, file, progress: 0, status: 'ready' })));
  }

  /** Sends the files side by side and marks each row with its own result. */
  async function uploadAll(todo: Entry[], controller: AbortController) {
    const token = await getIdToken().catch(() => null);
    for (const e of todo) patch(e.key, { status: 'uploading', progress: 0, error: undefined });
    return Promise.all(
      todo.map(async (e) => {
        const outcome = await uploadFile(e.file, { token, signal: controller.signal, onProgress: (p) => patch(e.key, { progress: p }) });
        if (outcome.ok) patch(e.key, { status: 'done', progress: 100 });
        else patch(e.key, { status: 'error', error: outcome.network ? texts.needsConnection : outcome.message });
        return outcome;
      }),
    );
  }

  async function submit() {
    const todo = entries.filter((e) => e.status === 'ready' || e.status === 'error');
    if (todo.length === 0) return;
    const controller = new AbortController();
    const done = await run(() => {
      abortRef.current = controller;
      return uploadAll(todo, controller);
    });
    if (!done?.ok || controller.signal.aborted) return;
    abortRef.current = null;
    report(done.value);
    if (done.value.some((o) => o.ok)) void engine.requestPull();
    setPickerKey((k) => k + 1);
  }

  const pending = entries.some((e) => e.status === 'ready' || e.status === 'error');

  return (
    <Popup
      open={open}
      onClose={close}
      title="Upload File"
      footer={
        <>
          <Button variant="outline" onClick={close}>
            {entries.length > 0 && !pending && !busy ? 'Close' : 'Cancel'}
          </Button>
          <Button colorPalette="brand" onClick={() => void submit()} loading={busy} disabled={!pending}>
            Submit
          </Button>
        </>
      }
    >
      <Stack gap="4">
        {/* A drop zone rather than the browser's grey "Choose Files": the whole zone is one button (Enter or Space opens the picker) and takes dropped files. */}
        <FileUpload.Root
          key={pickerKey}
          maxFiles={maxFiles}
          disabled={busy}
          alignItems="stretch"
          translations={{ dropzone: 'Choose from this device, or drop here' }}
          onFileChange={(details) => choose(details.acceptedFiles)}
        >
          <FileUpload.HiddenInput />
          <FileUpload.Label>Files</FileUpload.Label>
          <FileUpload.Dropzone width="100%" minHeight="36" borderColor="portal.border" bg="portal.background" cursor="pointer">
            <Box color="brand.fg" aria-hidden="true">
              <Upload size={22} />
            </Box>
            <FileUpload.DropzoneContent>
              <Text fontWeight="medium">Drop your files here</Text>
              <Text color="fg.muted">or</Text>
            </FileUpload.DropzoneContent>
            {/* Looks like a button; the zone itself is the control, so no second focus stop inside it. */}
            <Box as="span" px="4" py="1.5" borderRadius="l2" bg="brand.solid" color="brand.contrast" fontWeight="semibold" fontSize="sm">
              Choose files
            </Box>
          </FileUpload.Dropzone>
        </FileUpload.Root>
        {entries.length > 0 && (
          <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label="Chosen files">
            {entries.map((entry) => (
              <FileRow key={entry.key} entry={entry} />
            ))}
          </Stack>
        )}
      </Stack>
    </Popup>
  );
}

function FileRow({ entry }: { entry: Entry }) {
  const color = entry.status === 'error' ? 'red' : entry.status === 'done' ? 'green' : 'brand';
  return (
    <Box as="li" data-testid="upload-row" data-status={entry.status}>
      <HStack justify="space-between" gap="2">
        <Text fontWeight="medium" truncate minWidth="0" title={entry.file.name}>
          {entry.file.name}
        </Text>
        <HStack gap="1" flexShrink={0} color="fg.muted" fontSize="xs">
          <Text>{formatSize(entry.file.size)}</Text>
          {entry.status === 'done' && (
            <Box color="green.600" aria-label="Uploaded" role="img">
              <CircleCheck size={18} />
            </Box>
          )}
          {entry.status === 'error' && (
            <Box color="red.600" aria-label="Upload failed" role="img">
              <CircleAlert size={18} />
            </Box>
          )}
        </HStack>
      </HStack>
      <Progress.Root value={entry.progress} size="sm" colorPalette={color} mt="1.5">
        <Progress.Track aria-label={`Upload of ${entry.file.name}`} borderRadius="full">
          <Progress.Range />
        </Progress.Track>
      </Progress.Root>
      {entry.error && (
        <Text color="red.600" fontSize="xs" mt="1">
          {entry.error}
        </Text>
      )}
    </Box>
  );
}
