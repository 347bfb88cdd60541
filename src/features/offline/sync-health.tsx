import { Box, Button, Popover, Portal, Stack, Text } from '@chakra-ui/react';
import dayjs from 'dayjs';
import { useLiveQuery } from '../../lib/use-live-query.ts';
import { CloudAlert } from 'lucide-react';
import type { PortalDb } from '../../lib/db.ts';
import { type SyncHealth, readSyncHealth } from '../../lib/sync/health.ts';
import { useSyncEngine } from '../../lib/sync/use-sync-engine.ts';
import { useOneAtATime } from '../../lib/use-one-at-a-time.ts';

/** "14:05" today, "03/02/2026 14:05" on another day: the spec's date format, with the time a pull needs. */
export function formatSyncedAt(at: number, now: number = Date.now()): string {
  const when = dayjs(at);
  return when.isSame(now, 'day') ? when.format('HH:mm') : when.format('DD/MM/YYYY HH:mm');
}

/** The replica's sync health from Dexie, so a failing background pull or send shows up here as soon as it is recorded. */
export function SyncHealthStatus({ db, online }: { db: PortalDb; online: boolean }) {
  const engine = useSyncEngine();
  const health = useLiveQuery(() => readSyncHealth(db), [db]);
  return <SyncHealthView health={health} online={online} onRetry={engine.retry} />;
}

/** "1 update", "3 updates". */
function updates(n: number): string {
  return n === 1 ? '1 update' : `${n} updates`;
}

/**
 * What keeps the device from being up to date, in plain words, most pressing first. Offline, the Offline badge
 * already says why nothing is pulled, so older pull errors wait for the pull the reconnection starts; what the
 * device itself could not do (send, read a row) is said offline too.
 */
export function syncProblems(health: SyncHealth, online: boolean): string[] {
  const problems: string[] = [];
  if (online && health.error) problems.push(`Can't sync: ${health.error.message}`);
  if (online && health.staffError) problems.push(`Can't update the staff workspace: ${health.staffError.message}`);
  if (health.senderError) problems.push(`Can't send what is saved on this device: ${health.senderError.message}`);
  const rejected = health.rejectedRows.length;
  if (rejected > 0) {
    problems.push(`${updates(rejected)} from the server could not be read by this version of the app and ${rejected === 1 ? 'was' : 'were'} set aside. Retry reads ${rejected === 1 ? 'it' : 'them'} again.`);
  }
  return problems;
}

/**
 * Quiet when all is well: "Last synced 14:05" on wide screens. When something keeps the device from being up to
 * date, a "Can't sync" button opens the reasons and Retry.
 */
export function SyncHealthView({ health, online, onRetry }: { health: SyncHealth | undefined; online: boolean; onRetry(): Promise<unknown> }) {
  if (!health) return null;
  const lastSynced = health.lastSyncedAt === null ? null : `Last synced ${formatSyncedAt(health.lastSyncedAt)}`;
  const problems = syncProblems(health, online);
  if (problems.length > 0) return <CantSync problems={problems} lastSynced={lastSynced} onRetry={onRetry} />;
  if (!lastSynced) return null;
  return (
    <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap" display={{ base: 'none', md: 'block' }} data-testid="last-synced">
      {lastSynced}
    </Text>
  );
}

function CantSync({ problems, lastSynced, onRetry }: { problems: string[]; lastSynced: string | null; onRetry(): Promise<unknown> }) {
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
                {problems.map((problem) => (
                  <Text key={problem} fontWeight="medium" wordBreak="break-word">
                    {problem}
                  </Text>
                ))}
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
