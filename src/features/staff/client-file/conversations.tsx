import { Badge, Box, Button, Field, HStack, Heading, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { formatDate } from '../../../../domain/format.ts';
import { StaffThread } from '../../../../domain/staff.ts';
import { apiSend } from '../../../lib/api.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { useReplica } from '../../../lib/replica.ts';
import { ReplyBody } from '../../../../domain/schemas.ts';
import { TextEditDialog } from '../../../components/text-edit-dialog.tsx';
import type { CommandEditorProps } from '../../../lib/sync/commands/editor-context.ts';
import { queueStaffReply } from '../../../lib/sync/commands/staff-kinds.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOneAtATime } from '../../../lib/use-one-at-a-time.ts';
import { VersionConflict } from '../shared/conflict-alert.tsx';
import { formatDateTime } from '../../../../domain/format.ts';
import { threadAnchor } from '../shared/links.tsx';
import { OfflineHint } from '../shared/offline-hint.tsx';
import { QueuedMark } from '../shared/queued-mark.tsx';
import { diffRecords } from '../shared/record-diff.ts';
import { EmptyText, SectionCard } from '../shared/section-card.tsx';
import { type QueuedReply, useQueuedStaffWrites } from '../shared/use-queued-staff-writes.ts';
import { type VersionedAction, useVersionedAction } from '../shared/use-versioned-action.ts';

const REPLY_MAX = 2000;

function parseThread(value: unknown): StaffThread | null {
  const parsed = StaffThread.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function threadChanges(before: StaffThread, after: StaffThread): string[] {
  const lines = diffRecords(before, after, ['status']);
  const added = after.replies.length - before.replies.length;
  return added > 0 ? [...lines, added === 1 ? 'A new message' : `${added} new messages`] : lines;
}

/** The client's support threads, newest first: the messages both ways, a reply box, close and reopen. */
export function Conversations({ threads, clientUid, refreshing, reload }: { threads: StaffThread[]; clientUid: string; refreshing: boolean; reload(): void }) {
  const queued = useQueuedStaffWrites(clientUid).replies;
  useScrollToAnchor(threads.length > 0);
  return (
    <SectionCard title="Conversations" count={threads.length}>
      {threads.length === 0 ? (
        <EmptyText>No messages to support.</EmptyText>
      ) : (
        <Stack gap="4">
          {threads.map((thread) => (
            <ThreadCard
              key={thread.id}
              thread={thread}
              clientUid={clientUid}
              queued={queued.filter((r) => r.threadId === thread.id && !thread.replies.some((x) => x.commandId === r.command.commandId))}
              refreshing={refreshing}
              reload={reload}
            />
          ))}
        </Stack>
      )}
    </SectionCard>
  );
}

/** The page opens on a linked conversation once it is on screen (it may come from the device a moment later). */
function useScrollToAnchor(ready: boolean) {
  useEffect(() => {
    const id = window.location.hash.slice(1);
    if (!ready || !id) return;
    document.getElementById(decodeURIComponent(id))?.scrollIntoView({ block: 'start' });
  }, [ready]);
}

interface ThreadCardProps {
  thread: StaffThread;
  clientUid: string;
  queued: QueuedReply[];
  refreshing: boolean;
  reload(): void;
}

function ThreadCard({ thread, clientUid, queued, refreshing, reload }: ThreadCardProps) {
  const headingId = `${threadAnchor(thread.id)}-subject`;
  const action = useVersionedAction({ record: thread, parseCurrent: parseThread, reload });
  return (
    <Box
      as="article"
      id={threadAnchor(thread.id)}
      aria-labelledby={headingId}
      borderWidth="1px"
      borderColor="portal.border"
      borderRadius="l2"
      p={{ base: '3', md: '4' }}
      minWidth="0"
      scrollMarginTop="80px"
      data-testid="thread"
    >
      <Stack gap="3">
        <HStack gap="2" wrap="wrap" justify="space-between" align="start">
          <Stack gap="1" minWidth="0">
            <Heading as="h3" id={headingId} fontSize="0.9375rem" fontWeight="semibold" wordBreak="break-word">
              {thread.subject}
            </Heading>
            <HStack gap="2" wrap="wrap">
              <Text fontSize="xs" color="fg.muted">
                {formatDate(thread.createdAt)}
              </Text>
              <Badge colorPalette={thread.status === 'open' ? 'green' : 'gray'} variant="subtle">
                {thread.status === 'open' ? 'Open' : 'Closed'}
              </Badge>
              {thread.awaitingSince && (
                <Badge colorPalette="orange" variant="solid">
                  Awaiting our reply since {formatDateTime(thread.awaitingSince)}
                </Badge>
              )}
            </HStack>
          </Stack>
          <ThreadStatusButton thread={thread} refreshing={refreshing} action={action} />
        </HStack>
        <VersionConflict
          title="Someone else changed this conversation while you were reading it"
          conflict={action.conflict}
          record={thread}
          refreshing={refreshing}
          running={action.running}
          diff={threadChanges}
          onRedo={() => void action.redo()}
          onDiscard={action.discard}
        />
        <Stack as="ol" gap="2" listStyleType="none" m="0" p="0" aria-label={`Messages: ${thread.subject}`}>
          <Message author="client" at={thread.createdAt} body={thread.message} />
          {thread.replies.map((reply) => (
            <Message key={reply.id} author={reply.author} at={reply.createdAt} body={reply.message} />
          ))}
          {queued.map((reply) => (
            <Message key={reply.command.commandId} author="staff" body={reply.message} mark={<QueuedMark command={reply.command} />} />
          ))}
        </Stack>
        <ReplyForm thread={thread} clientUid={clientUid} />
      </Stack>
    </Box>
  );
}

/** One message; staff see which side wrote it, the client never sees staff names either. */
function Message({ author, at, body, mark }: { author: 'client' | 'staff'; at?: string; body: string; mark?: ReactNode }) {
  const fromClient = author === 'client';
  return (
    <Box
      as="li"
      bg={fromClient ? 'portal.background' : 'brand.subtle'}
      borderRadius="l2"
      px="3"
      py="2"
      ms={fromClient ? '0' : { base: '4', md: '10' }}
      me={fromClient ? { base: '4', md: '10' } : '0'}
      data-testid="message"
      data-author={author}
    >
      <HStack gap="2" wrap="wrap">
        <Text fontSize="xs" fontWeight="semibold">
          {fromClient ? 'Client' : 'Support'}
        </Text>
        {at && (
          <Text fontSize="xs" color="fg.muted">
            {formatDateTime(at)}
          </Text>
        )}
        {mark}
      </HStack>
      <Text mt="1" whiteSpace="pre-wrap" wordBreak="break-word">
        {body}
      </Text>
    </Box>
  );
}

/** Close or reopen: an online-only, versioned write (someone else may have just done it). */
function ThreadStatusButton({ thread, refreshing, action }: { thread: StaffThread; refreshing: boolean; action: VersionedAction<StaffThread> }) {
  const online = useOnline();
  const closing = thread.status === 'open';
  const label = closing ? 'Close conversation' : 'Reopen conversation';

  function change() {
    void action.perform({
      label,
      success: closing ? 'Conversation closed.' : 'Conversation reopened.',
      send: (version) =>
        apiSend(`/staff/threads/${encodeURIComponent(thread.id)}/status`, 'POST', { version, status: closing ? 'closed' : 'open' }, StaffThread),
    });
  }

  return (
    <Stack gap="1" align={{ base: 'start', sm: 'end' }}>
      <Button size="sm" variant="outline" colorPalette={closing ? 'gray' : 'brand'} bg="portal.white" loading={action.running} disabled={refreshing || !online} onClick={change}>
        {label}
      </Button>
      {!online && <OfflineHint />}
    </Stack>
  );
}

/** A reply works offline: it queues in the outbox and shows in the thread as waiting until it is sent. */
function ReplyForm({ thread, clientUid }: { thread: StaffThread; clientUid: string }) {
  const db = useReplica();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | undefined>();
  const { running, once } = useOneAtATime();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const text = message.trim();
    if (!text) {
      setError('Reply is required');
      return;
    }
    setError(undefined);
    await once(async () => {
      try {
        await queueStaffReply(db, clientUid, thread.id, thread.subject, text);
        setMessage('');
      } catch (err) {
        console.error('queueing a reply failed', err);
        showMessage('The reply could not be saved on this device.', 'error');
      }
    });
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="2">
        <Field.Root required invalid={!!error}>
          <Field.Label>Your reply</Field.Label>
          <Textarea value={message} maxLength={REPLY_MAX} rows={3} onChange={(e) => setMessage(e.target.value)} />
          {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>The client reads it as from Support.</Field.HelperText>}
        </Field.Root>
        <Button type="submit" colorPalette="brand" size="sm" loading={running} alignSelf="start">
          Send reply
        </Button>
      </Stack>
    </form>
  );
}

/** The outbox's Edit of a refused reply to a client: the same field, checked with ReplyBody as the server does. */
export function StaffReplyEditDialog({ body, onSave, onClose }: CommandEditorProps<'staffReply'>) {
  const errorOf = (message: string) => {
    const parsed = ReplyBody.safeParse({ reply: { message } });
    return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Reply is invalid').replace(/^message/, 'Reply');
  };
  return (
    <TextEditDialog
      title="Edit reply"
      label="Your reply"
      initial={body.reply.message}
      max={REPLY_MAX}
      errorOf={errorOf}
      onSave={(message) => onSave({ reply: { message } })}
      onClose={onClose}
    />
  );
}
