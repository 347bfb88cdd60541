import { Badge, Box, Button, Collapsible, Field, HStack, Stack, Text, Textarea } from '@chakra-ui/react';
import { ChevronDown } from 'lucide-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { formatDate, formatDateTime } from '../../../../domain/format.ts';
import { ReplyBody } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { TextEditDialog } from '../../../components/text-edit-dialog.tsx';
import { iconSize } from '../../../components/theme-tokens.ts';
import type { CommandEditorProps } from '../../../lib/sync/commands/editor-context.ts';
import { queueContactReply } from '../../../lib/sync/commands/kinds.ts';
import type { LocalContactReply, LocalContactRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { markThreadSeen } from '../../../lib/seen-marks.ts';
import { isAccepted, useQueuedCommand } from '../../../lib/sync/commands/use-queued-command.ts';

/** ReplyBody's bound, enforced by the textarea too so the user is stopped before queueing. */
export const replyMax = 2000;

export const closedThreadText = 'This conversation is closed. Writing here reopens it.';

/** "1 reply", "2 replies". */
export function replyCount(n: number): string {
  return n === 1 ? '1 reply' : `${n} replies`;
}

/**
 * One support thread in the Contact Requests list: the first message as the spec shows it (subject, date,
 * message), its state and reply count, and the conversation, opened below it on demand.
 */
export function ContactThread({ thread, replies, linked = false }: { thread: LocalContactRequest; replies: LocalContactReply[]; linked?: boolean }) {
  const closed = thread.status === 'closed';
  return (
    <>
      <HStack justify="space-between" align="start" gap="3">
        <Text fontWeight="semibold" wordBreak="break-word">
          {thread.subject}
        </Text>
        <Text fontSize="xs" color="fg.muted" flexShrink={0} mt="0.5">
          {formatDate(thread.createdAt)}
        </Text>
      </HStack>
      <HStack gap="2" mt="1" wrap="wrap">
        <Badge colorPalette={closed ? 'gray' : 'green'} variant="subtle" data-testid="thread-status" data-thread-status={thread.status}>
          {closed ? 'Closed' : 'Open'}
        </Badge>
        {replies.length > 0 && (
          <Text fontSize="xs" color="fg.muted" data-testid="reply-count">
            {replyCount(replies.length)}
          </Text>
        )}
        {thread.pending && (
          <Badge colorPalette="orange" variant="subtle">
            {texts.waitingToSend}
          </Badge>
        )}
      </HStack>
      <Text mt="1" color="fg" whiteSpace="pre-wrap" wordBreak="break-word">
        {thread.message}
      </Text>
      {/* A thread still in the outbox has no server id yet, so nothing can be replied to it. */}
      {!thread.pending && <Conversation thread={thread} replies={replies} linked={linked} />}
    </>
  );
}

function Conversation({ thread, replies, linked }: { thread: LocalContactRequest; replies: LocalContactReply[]; linked: boolean }) {
  const [open, setOpen] = useState(linked);
  const root = useRef<HTMLDivElement>(null);
  const db = useReplica();
  // A notification's link opens the conversation (also when the thread arrives after the page) and shows it.
  useEffect(() => {
    if (!linked) return;
    setOpen(true);
    root.current?.scrollIntoView({ block: 'nearest' });
  }, [linked]);
  // An open conversation tells the server what it shows (its newest reply), so an email about it need not go;
  // a reply arriving while it is open is shown, so it is marked too. Nothing is sent when nothing is newer.
  useEffect(() => {
    if (open) void markThreadSeen(db, thread, replies).catch((err: unknown) => console.warn('seen mark not kept', err));
  }, [open, db, thread, replies]);
  return (
    <Collapsible.Root ref={root} open={open} onOpenChange={(e) => setOpen(e.open)} mt="2" data-testid="conversation" data-open={open}>
      <Collapsible.Trigger asChild>
        <Button variant="ghost" size="sm" colorPalette="brand" px="2" ms="-2">
          {open ? 'Hide conversation' : 'Show conversation'}
          <Box as="span" transform={open ? 'rotate(180deg)' : undefined} transition="transform 0.2s" display="inline-flex">
            <ChevronDown size={iconSize} aria-hidden="true" />
          </Box>
        </Button>
      </Collapsible.Trigger>
      <Collapsible.Content>
        <Stack gap="3" pt="2">
          {replies.length > 0 && (
            <Stack as="ol" gap="2" listStyleType="none" m="0" p="0" aria-label="Replies">
              {replies.map((reply) => (
                <Reply key={reply.id} reply={reply} />
              ))}
            </Stack>
          )}
          {thread.status === 'closed' && (
            <Text fontSize="sm" color="fg.muted" data-testid="thread-closed-note">
              {closedThreadText}
            </Text>
          )}
          <ReplyForm thread={thread} />
        </Stack>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}

function Reply({ reply }: { reply: LocalContactReply }) {
  const fromSupport = reply.author === 'staff';
  return (
    <Box
      as="li"
      data-testid="contact-reply"
      data-author={reply.author}
      bg={fromSupport ? 'brand.subtle' : 'bg.muted'}
      borderRadius="md"
      px="3"
      py="2"
      // Support on the left, the client's own on the right, as in a chat; never wider than the card.
      ms={fromSupport ? '0' : '6'}
      me={fromSupport ? '6' : '0'}
    >
      <HStack justify="space-between" gap="2" wrap="wrap">
        <Text fontSize="sm" fontWeight="semibold">
          {fromSupport ? 'Support' : 'You'}
        </Text>
        <Text asChild fontSize="xs" color="fg.muted">
          <time dateTime={reply.createdAt}>
            {formatDateTime(reply.createdAt)}
          </time>
        </Text>
      </HStack>
      {reply.pending && (
        <Badge colorPalette="orange" variant="subtle" mt="1">
          {texts.waitingToSend}
        </Badge>
      )}
      <Text mt="1" whiteSpace="pre-wrap" wordBreak="break-word">
        {reply.message}
      </Text>
    </Box>
  );
}

/** The error ReplyBody gives, as a sentence ("Message is required"); null when the reply may be queued. */
export function replyError(message: string): string | null {
  const parsed = ReplyBody.safeParse({ reply: { message } });
  if (parsed.success) return null;
  const text = parsed.error.issues[0]?.message ?? 'Message is invalid';
  return text[0].toUpperCase() + text.slice(1);
}

/** The outbox's Edit of a refused reply: the same field and check, prefilled. */
export function ContactReplyEditDialog({ body, onSave, onClose }: CommandEditorProps<'contactReply'>) {
  return (
    <TextEditDialog
      title="Edit reply"
      label="Your reply"
      initial={body.reply.message}
      max={replyMax}
      errorOf={replyError}
      onSave={(message) => onSave({ reply: { message } })}
      onClose={onClose}
    />
  );
}

function ReplyForm({ thread }: { thread: LocalContactRequest }) {
  const db = useReplica();
  const [message, setMessage] = useState('');
  const [touched, setTouched] = useState(false);
  const { queuing, queue } = useQueuedCommand();
  const error = replyError(message);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (error) return;
    // Refused by the server: the box keeps the text, so nothing the user wrote is lost from view.
    if (!isAccepted(await queue(() => queueContactReply(db, thread.id, thread.subject, message.trim()), { sent: texts.messageSent }))) return;
    setMessage('');
    setTouched(false);
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="2">
        <Field.Root required invalid={touched && !!error}>
          <Field.Label>
            Your reply <Field.RequiredIndicator />
          </Field.Label>
          <Textarea value={message} maxLength={replyMax} rows={3} onChange={(e) => setMessage(e.target.value)} />
          {touched && error ? (
            <Field.ErrorText>{error}</Field.ErrorText>
          ) : (
            <Field.HelperText>
              {message.length}/{replyMax}
            </Field.HelperText>
          )}
        </Field.Root>
        <Button type="submit" colorPalette="brand" loading={queuing} alignSelf="flex-end" minWidth="120px">
          Send
        </Button>
      </Stack>
    </form>
  );
}
