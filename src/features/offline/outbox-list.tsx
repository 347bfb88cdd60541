import { Badge, Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { type ComponentType, useState } from 'react';
import { formatDate } from '../../../domain/format.ts';
import { texts } from '../../../domain/texts.ts';
import type { CommandBodies } from '../../lib/sync/commands/kind.ts';
import { type CommandEditorProps, type CommandEditors, type EditableKind, isEditableKind, useCommandEditors } from '../../lib/sync/commands/editor-context.ts';
import type { OutboxCommand, PortalDb } from '../../lib/db.ts';
import { discardCommand, editCommand, readCommandBody, retryCommand } from '../../lib/sync/commands/outbox-actions.ts';
import { outboxErrorLine } from '../../lib/sync/commands/outbox-words.ts';
import { useOnline } from '../../lib/pwa.ts';

const statusText: Record<OutboxCommand['status'], string> = {
  pending: texts.waitingToSend,
  sending: 'Sending…',
  failed: 'Failed',
  held: 'Sign in again to send',
};

export function OutboxList({ db, commands }: { db: PortalDb; commands: OutboxCommand[] }) {
  return (
    <Stack gap="3" as="ul" listStyleType="none" aria-label="Outbox">
      {commands.map((command) => (
        // Keyed by its place in the queue: Retry and Edit give a command a new id, not a new place.
        <Box as="li" key={command.seq} borderWidth="1px" borderColor="portal.border" borderRadius="l2" p="3">
          <OutboxItem db={db} command={command} />
        </Box>
      ))}
    </Stack>
  );
}

function OutboxItem({ db, command }: { db: PortalDb; command: OutboxCommand }) {
  const [editing, setEditing] = useState(false);
  const editors = useCommandEditors();
  const seq = command.seq!;
  // Only a failed command is edited (the server said why), and only one whose body this app can read back.
  const kind = command.kind;
  const editable = command.status === 'failed' && editors !== null && isEditableKind(kind) && readCommandBody(command) !== null;
  const online = useOnline();
  const errorLine = outboxErrorLine(command, online);
  return (
    <Stack gap="2">
      <HStack justify="space-between" align="start">
        <Text fontWeight="semibold">{command.label}</Text>
        <Badge colorPalette={command.status === 'failed' ? 'red' : 'orange'}>{statusText[command.status]}</Badge>
      </HStack>
      <Text fontSize="xs" color="fg.muted">
        Created {formatDate(command.createdAt)}
        {command.attempts > 0 ? ` · ${command.attempts} attempt${command.attempts === 1 ? '' : 's'}` : ''}
      </Text>
      {errorLine && (
        <Text fontSize="sm" color={command.status === 'failed' ? 'red.600' : 'fg.muted'}>
          {errorLine}
        </Text>
      )}
      <HStack gap="2" wrap="wrap">
        <Button size="xs" colorPalette="brand" onClick={() => void retryCommand(db, seq)}>
          Retry
        </Button>
        {editable && (
          <Button size="xs" variant="outline" onClick={() => setEditing(true)}>
            Edit
          </Button>
        )}
        {/* While it is on the wire the server may already have it: discarding then would only hide it. */}
        {command.status !== 'sending' && (
          <Button size="xs" variant="ghost" colorPalette="red" onClick={() => void discardCommand(db, seq)}>
            Discard
          </Button>
        )}
      </HStack>
      {editing && editors && isEditableKind(kind) && <Editor db={db} editors={editors} command={command} kind={kind} onClose={() => setEditing(false)} />}
    </Stack>
  );
}

/** The feature's own form for this kind, prefilled with the command's body; saving replaces the command. */
function Editor<K extends EditableKind>({ db, editors, command, kind, onClose }: { db: PortalDb; editors: CommandEditors; command: OutboxCommand; kind: K; onClose(): void }) {
  const body = readCommandBody({ ...command, kind });
  if (!body) return null;
  const Form: ComponentType<CommandEditorProps<K>> = editors[kind];
  const save = async (edited: CommandBodies[K]) => {
    await editCommand(db, command.seq!, kind, edited);
    onClose();
  };
  return <Form command={command} body={body} onSave={save} onClose={onClose} />;
}
