import { Badge, Box, Button, CloseButton, Drawer, HStack, IconButton, Portal, Stack, Text } from '@chakra-ui/react';
import { useLiveQuery } from '../../lib/use-live-query.ts';
import { CloudOff, Download, Inbox } from 'lucide-react';
import { useState } from 'react';
import { promptInstall, useOnline, usePwa } from '../../lib/pwa.ts';
import { useReplica } from '../../lib/replica.ts';
import { OutboxList } from './outbox-list.tsx';
import { SyncHealthStatus } from './sync-health.tsx';
import { iconSize } from '../../components/theme-tokens.ts';

/**
 * The toolbar's status corner: the sync's health (last synced, or can't sync with Retry), an offline badge,
 * the outbox button (count of unsent and failed commands, opening the outbox panel) and the install button
 * where the browser offers one.
 */
export function OfflineIndicator() {
  const online = useOnline();
  const { canInstall } = usePwa();
  const db = useReplica();
  const [open, setOpen] = useState(false);
  // Counts only (index reads): with a thousand queued commands the toolbar must not reread them all on each send.
  const queued = useLiveQuery(() => db.outbox.count(), [db]) ?? 0;
  const failed = useLiveQuery(() => db.outbox.where('status').equals('failed').count(), [db]) ?? 0;
  const commands = useLiveQuery(() => (open ? db.outbox.orderBy('seq').toArray() : []), [db, open]) ?? [];

  return (
    <HStack gap="1">
      <SyncHealthStatus db={db} online={online} />
      {!online && (
        <Badge colorPalette="orange" variant="solid" size="md" role="status" aria-live="polite">
          <CloudOff size={14} aria-hidden="true" />
          Offline
        </Badge>
      )}
      {canInstall && (
        <IconButton variant="ghost" borderRadius="full" aria-label="Install app" onClick={() => void promptInstall()}>
          <Download size={iconSize} />
        </IconButton>
      )}
      {queued > 0 && (
        <Box position="relative">
          <IconButton variant="ghost" borderRadius="full" aria-label={`Outbox: ${queued} waiting to send`} onClick={() => setOpen(true)}>
            <Inbox size={iconSize} />
          </IconButton>
          <Badge
            position="absolute"
            top="0"
            insetEnd="0"
            size="xs"
            variant="solid"
            colorPalette={failed > 0 ? 'red' : 'orange'}
            borderRadius="full"
            pointerEvents="none"
          >
            {queued}
          </Badge>
        </Box>
      )}
      <Drawer.Root open={open} onOpenChange={(d) => setOpen(d.open)} placement="end" size="sm">
        <Portal>
          <Drawer.Backdrop />
          <Drawer.Positioner>
            <Drawer.Content>
              <Drawer.Header>
                <Drawer.Title>Waiting to send</Drawer.Title>
              </Drawer.Header>
              <Drawer.Body>
                <Stack gap="3">
                  <Text color="fg.muted">
                    {online
                      ? 'These requests are saved on this device and are being sent.'
                      : 'You are offline. These requests are saved on this device and will be sent when the connection is back.'}
                  </Text>
                  <OutboxList db={db} commands={commands} />
                  {commands.length === 0 && <Text>Everything has been sent.</Text>}
                  <Button variant="outline" onClick={() => setOpen(false)}>
                    Close
                  </Button>
                </Stack>
              </Drawer.Body>
              <Drawer.CloseTrigger asChild>
                <CloseButton size="sm" aria-label="Close outbox" />
              </Drawer.CloseTrigger>
            </Drawer.Content>
          </Drawer.Positioner>
        </Portal>
      </Drawer.Root>
    </HStack>
  );
}
