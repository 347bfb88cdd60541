import { Box, Button, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import dayjs from 'dayjs';
import { useLiveQuery } from 'dexie-react-hooks';
import { CloudAlert } from 'lucide-react';
import { pullEverything } from '../../lib/data-services.ts';
import type { PortalDb } from '../../lib/db.ts';
import { type SyncHealth, readSyncHealth } from '../../lib/sync.ts';
import { useOneAtATime } from '../../lib/use-one-at-a-time.ts';

/** "14:05" today, "03/02/2026 14:05" on another day: the spec's date format, with the time a pull needs. */
export function formatSyncedAt(at: number, now: number = Date.now()): string {
  const when = dayjs(at);
  return when.isSame(now, 'day') ? when.format('HH:mm') : when.format('DD/MM/YYYY HH:mm');
}

/** The replica's sync health from Dexie, so a failing background pull shows up here as soon as it is recorded. */
export function SyncHealthStatus({ db, online }: { db: PortalDb; online: boolean }) {
  const health = useLiveQuery(() => readSyncHealth(db), [db]);
  return <SyncHealthView health={health} online={online} onRetry={() => pullEverything(db)} />;
}

/**
 * Quiet when all is well: "Last synced 14:05" on wide screens. When the last pull reached the server and failed,
 * a "Can't sync" button opens the reason and Retry. Offline, the Offline badge already says why nothing moves,
 * so an older error waits for the pull the reconnection starts.
 */
export function SyncHealthView({ health, online, onRetry }: { health: SyncHealth | undefined; online: boolean; onRetry(): Promise<unknown> }) {
  if (!health) return null;
  const lastSynced = health.lastSyncedAt === null ? null : `Last synced ${formatSyncedAt(health.lastSyncedAt)}`;
  if (health.error && online) return <CantSync message={health.error.message} lastSynced={lastSynced} onRetry={onRetry} />;
  if (!lastSynced) return null;
  return (
    <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap" display={{ base: 'none', md: 'block' }} data-testid="last-synced">
      {lastSynced}
    </Text>
  );
}

function CantSync({ message, lastSynced, onRetry }: { message: string; lastSynced: string | null; onRetry(): Promise<unknown> }) {
  // One retry at a time, even on a double click within one frame.
  const { running: retrying, once } = useOneAtATime();
  const retry = () => once(onRetry);
  return (
    <Popover.Root positioning={{ placement: 'bottom-end' }} lazyMount unmountOnExit>
      <Popover.Trigger asChild>
        <Button size="xs" variant="subtle" colorPalette="orange" borderRadius="full" aria-label="Can't sync: show details">
          <CloudAlert size={14} aria-hidden="true" />
          {/* On phones the icon alone keeps the toolbar on one line; the label above still names it. */}
          <Box as="span" display={{ base: 'none', md: 'inline' }}>
            Can't sync
          </Box>
        </Button>
      </Popover.Trigger>
      <Portal>
        <Popover.Positioner>
          <Popover.Content width="300px" maxWidth="calc(100vw - 16px)">
            <Popover.Body p="4">
              <Stack gap="2" role="status">
                <Text fontWeight="medium" wordBreak="break-word">
                  Can't sync: {message}
                </Text>
                <Text fontSize="sm" color="fg.muted">
                  {lastSynced ? `${lastSynced}. ` : ''}What you see is the copy saved on this device.
                </Text>
                <Button size="sm" colorPalette="brand" alignSelf="start" loading={retrying} onClick={() => void retry()}>
                  Retry
                </Button>
              </Stack>
            </Popover.Body>
          </Popover.Content>
        </Popover.Positioner>
      </Portal>
    </Popover.Root>
  );
}
