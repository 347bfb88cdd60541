import { Alert, Button, HStack, Heading, List, Stack, Text } from '@chakra-ui/react';
import type { Conflict } from './use-versioned-action.ts';

export interface ConflictAlertProps {
  title: string;
  /** What the other person changed, one "Field: before → after" line each. */
  changes: string[];
  /** The action that was not saved ("Set price"). */
  attempted: string;
  /** The fresh state is still loading: redoing now would use the old version again. */
  refreshing: boolean;
  redoing: boolean;
  onRedo(): void;
  onDiscard(): void;
}

/**
 * The optimistic-concurrency screen: someone saved first, so nothing of ours was written. It says what
 * they changed, keeps what we typed, and lets us apply it again on top of their change or drop it.
 */
export function ConflictAlert({ title, changes, attempted, refreshing, redoing, onRedo, onDiscard }: ConflictAlertProps) {
  return (
    <Alert.Root status="warning" role="alert" borderRadius="l3" borderWidth="1px" borderColor="orange.200" alignItems="start" data-testid="conflict-alert">
      <Alert.Indicator mt="1" />
      <Alert.Content gap="2">
        <Alert.Title asChild>
          <Heading as="h2" fontSize="1rem" fontWeight="semibold">
            {title}
          </Heading>
        </Alert.Title>
        <Alert.Description asChild>
          <Stack gap="2">
            <Text>
              Your “{attempted}” was not saved. The page now shows the current state and your entries are kept.
            </Text>
            {changes.length > 0 ? (
              <>
                <Text fontWeight="medium">What changed:</Text>
                <List.Root ps="5" aria-label="What changed">
                  {changes.map((line) => (
                    <List.Item key={line}>{line}</List.Item>
                  ))}
                </List.Root>
              </>
            ) : (
              <Text>{refreshing ? 'Loading the current state…' : 'Only details not shown here changed.'}</Text>
            )}
            <HStack gap="2" wrap="wrap" pt="1">
              <Button size="sm" colorPalette="brand" loading={redoing} disabled={refreshing} onClick={onRedo}>
                Redo on the fresh state
              </Button>
              <Button size="sm" variant="outline" bg="portal.white" disabled={redoing} onClick={onDiscard}>
                Discard
              </Button>
            </HStack>
          </Stack>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}

/** The conflict screen for one record: the alert while a conflict is open, nothing otherwise. */
export function VersionConflict<R extends { version: number }>({
  title,
  conflict,
  record,
  refreshing,
  running,
  diff,
  onRedo,
  onDiscard,
}: {
  title: string;
  conflict: Conflict<R> | null;
  /** The record as displayed: once reloaded, newer than the one the attempt was made from. */
  record: R;
  refreshing: boolean;
  running: boolean;
  diff(before: R, after: R): string[];
  onRedo(): void;
  onDiscard(): void;
}) {
  if (!conflict) return null;
  const after = conflict.current ?? (record.version !== conflict.before.version ? record : null);
  return (
    <ConflictAlert
      title={title}
      changes={after ? diff(conflict.before, after) : []}
      attempted={conflict.attempt.label}
      refreshing={refreshing}
      redoing={running}
      onRedo={onRedo}
      onDiscard={onDiscard}
    />
  );
}
