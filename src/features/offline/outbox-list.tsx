import { Badge, Box, Button, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { formatDate } from '../../../domain/format.ts';
import { texts } from '../../../domain/texts.ts';
import type { OutboxCommand, PortalDb } from '../../lib/db.ts';
import { discardCommand, replaceCommandPayload, retryCommand } from '../../lib/outbox.ts';
import { editableFields, withEditedFields } from './command-fields.ts';

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
        <Box as="li" key={command.id} borderWidth="1px" borderColor="portal.border" borderRadius="l2" p="3">
          <OutboxItem db={db} command={command} />
        </Box>
      ))}
    </Stack>
  );
}

function OutboxItem({ db, command }: { db: PortalDb; command: OutboxCommand }) {
  const [editing, setEditing] = useState(false);
  const seq = command.seq!;
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
      {command.error && (
        <Text fontSize="sm" color={command.status === 'failed' ? 'red.600' : 'fg.muted'}>
          {command.error}
        </Text>
      )}
      {editing ? (
        <EditForm
          command={command}
          onCancel={() => setEditing(false)}
          onSave={async (fields) => {
            await replaceCommandPayload(db, seq, { id: crypto.randomUUID(), ...withEditedFields(command, fields) });
            setEditing(false);
          }}
        />
      ) : (
        <HStack gap="2" wrap="wrap">
          <Button size="xs" colorPalette="brand" onClick={() => void retryCommand(db, seq)}>
            Retry
          </Button>
          {command.status === 'failed' && editableFields(command).length > 0 && (
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
      )}
    </Stack>
  );
}

function EditForm({ command, onSave, onCancel }: { command: OutboxCommand; onSave(fields: Record<string, string>): Promise<void>; onCancel(): void }) {
  const [values, setValues] = useState(() => Object.fromEntries(editableFields(command).map((f) => [f.key, String(f.value ?? '')])));
  return (
    <Stack
      as="form"
      gap="2"
      onSubmit={(e) => {
        e.preventDefault();
        void onSave(values);
      }}
    >
      {Object.entries(values).map(([key, value]) => (
        <Field.Root key={key}>
          <Field.Label>{key}</Field.Label>
          <Input size="sm" value={value} onChange={(e) => setValues({ ...values, [key]: e.target.value })} />
        </Field.Root>
      ))}
      <HStack>
        <Button size="xs" colorPalette="brand" type="submit">
          Save and send
        </Button>
        <Button size="xs" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </HStack>
    </Stack>
  );
}
