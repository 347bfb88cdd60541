import { Box, Button, Field, HStack, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { NoteBody, type StaffNote } from '../../../../domain/staff.ts';
import { TextEditDialog } from '../../../components/text-edit-dialog.tsx';
import type { CommandEditorProps } from '../../../lib/sync/commands/editor-context.ts';
import { useReplica } from '../../../lib/replica.ts';
import { queueStaffNote } from '../../../lib/sync/commands/staff-kinds.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { formatDateTime } from '../../../../domain/format.ts';
import { QueuedMark } from './queued-mark.tsx';
import { EmptyText, SectionCard } from './section-card.tsx';
import { type QueuedNote, useQueuedStaffWrites } from './use-queued-staff-writes.ts';

export const NOTES_TITLE = 'Internal notes — only staff see these';
const NOTE_MAX = 4000;

export interface NotesSectionProps {
  notes: StaffNote[];
  clientUid: string;
  /** On a request's page: its notes only, and a new note is about it. */
  requestId?: string;
  /** On the client's page: what a note about one of their requests links to. */
  aboutRequest?(requestId: string): ReactNode;
}

/**
 * Staff's notes on a client or a request; the server never gives them to the client. Adding one works
 * offline: it queues in the outbox and shows here as waiting until it is sent.
 */
export function NotesSection({ notes, clientUid, requestId, aboutRequest }: NotesSectionProps) {
  const queued = useQueuedStaffWrites(clientUid).notes.filter(
    (w) => (requestId === undefined || w.requestId === requestId) && !notes.some((n) => n.commandId === w.command.commandId),
  );
  return (
    <SectionCard title={NOTES_TITLE} count={notes.length + queued.length}>
      <Stack gap="4">
        <NotesList notes={notes} queued={queued} aboutRequest={aboutRequest} />
        <AddNoteForm clientUid={clientUid} requestId={requestId} />
      </Stack>
    </SectionCard>
  );
}

function NotesList({ notes, queued, aboutRequest }: { notes: StaffNote[]; queued: QueuedNote[]; aboutRequest?(requestId: string): ReactNode }) {
  if (notes.length === 0 && queued.length === 0) return <EmptyText>No internal notes yet.</EmptyText>;
  // Newest first, like the server's list: the ones still on the device are the newest.
  const waiting = [...queued].reverse();
  return (
    <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label="Internal notes">
      {waiting.map((w) => (
        <NoteItem key={w.command.commandId} body={w.body} meta={<QueuedMark command={w.command} />} />
      ))}
      {notes.map((note) => (
        <NoteItem
          key={note.id}
          body={note.body}
          meta={
            <>
              <Text as="span" fontSize="xs" color="fg.muted" wordBreak="break-all">
                {note.author.email}, {formatDateTime(note.createdAt)}
              </Text>
              {note.requestId && aboutRequest?.(note.requestId)}
            </>
          }
        />
      ))}
    </Stack>
  );
}

function NoteItem({ body, meta }: { body: string; meta: ReactNode }) {
  return (
    <Box as="li" py="3" borderTopWidth="1px" borderColor="portal.border" _first={{ borderTopWidth: 0, pt: 0 }} data-testid="note">
      <Text whiteSpace="pre-wrap" wordBreak="break-word">
        {body}
      </Text>
      <HStack gap="2" wrap="wrap" mt="1">
        {meta}
      </HStack>
    </Box>
  );
}

function AddNoteForm({ clientUid, requestId }: { clientUid: string; requestId?: string }) {
  const db = useReplica();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | undefined>();
  const { running, once } = useOneAtATime();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = body.trim();
    if (!text) {
      setError('Note is required');
      return;
    }
    setError(undefined);
    await once(async () => {
      try {
        await queueStaffNote(db, clientUid, text, requestId);
        setBody('');
      } catch (err) {
        console.error('queueing a note failed', err);
        showMessage('The note could not be saved on this device.', 'error');
      }
    });
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="2">
        <Field.Root required invalid={!!error}>
          <Field.Label>New internal note</Field.Label>
          <Textarea value={body} maxLength={NOTE_MAX} rows={3} onChange={(e) => setBody(e.target.value)} />
          {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>Saved on this device first: it is sent when you are online.</Field.HelperText>}
        </Field.Root>
        <Button type="submit" colorPalette="brand" variant="outline" loading={running} alignSelf="start">
          Add note
        </Button>
      </Stack>
    </form>
  );
}

/** The outbox's Edit of a refused note: the same field, checked with NoteBody as the server does; it stays on its client. */
export function StaffNoteEditDialog({ body, onSave, onClose }: CommandEditorProps<'staffNote'>) {
  const errorOf = (text: string) => {
    const parsed = NoteBody.shape.body.safeParse(text);
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Note is invalid').replace(/^body/, 'Note');
  };
  return (
    <TextEditDialog
      title="Edit internal note"
      label="Internal note"
      initial={body.body}
      max={NOTE_MAX}
      errorOf={errorOf}
      onSave={(text) => onSave({ ...body, body: text })}
      onClose={onClose}
    />
  );
}
