import { Alert, Button, Card, HStack, Skeleton, Stack, Text } from '@chakra-ui/react';
import { CloudOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { texts } from '../../../../domain/texts.ts';
import { failureText } from '../../../lib/use-online-action.ts';
import { formatDateTime } from '../../../../domain/format.ts';
import { type StaffQuery, isOfflineError } from './use-staff-query.ts';

/** What a failed read says: no connection is not an error of the data, so it gets the spec's offline text. */
export function loadFailureText(error: unknown): string {
  return isOfflineError(error) ? texts.needsConnection : failureText(error);
}

/** Offline, a page read from the device says how old it is, quietly: it is not an error. */
export function OfflineCopyNote({ since }: { since: number }) {
  return (
    <HStack gap="2" color="fg.muted" fontSize="sm" role="status" data-testid="offline-copy">
      <CloudOff size={16} aria-hidden="true" />
      <Text>Offline copy from {formatDateTime(since)}</Text>
    </HStack>
  );
}

export function LoadingSkeleton({ label, rows = 3 }: { label: string; rows?: number }) {
  return (
    <Stack gap="3" aria-busy="true" aria-label={label}>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} height={i === 0 ? '16' : '10'} />
      ))}
    </Stack>
  );
}

export function LoadError({ error, onRetry }: { error: unknown; onRetry(): void }) {
  return (
    <Alert.Root status={isOfflineError(error) ? 'warning' : 'error'} role="alert" borderRadius="l3" alignItems="center" flexWrap="wrap" gap="3">
      <Alert.Indicator />
      <Alert.Content flex="1" minWidth="200px">
        <Alert.Title fontWeight="medium">{loadFailureText(error)}</Alert.Title>
      </Alert.Content>
      <Button size="sm" variant="outline" colorPalette="gray" bg="portal.white" onClick={onRetry}>
        Retry
      </Button>
    </Alert.Root>
  );
}

/** Above the data: how old the offline copy is, or the error of a reload that failed over data already shown. */
export function QueryNotice<T>({ query }: { query: StaffQuery<T> }) {
  if (query.offlineSince !== null) return <OfflineCopyNote since={query.offlineSince} />;
  if (query.error !== undefined && !query.loading) return <LoadError error={query.error} onRetry={query.reload} />;
  return null;
}

/**
 * A staff read's three states: a skeleton until the first answer or copy, the error with Retry when there
 * is nothing to show, and the data (with the offline note or the error of a failed reload above it).
 */
export function QueryView<T>({ query, loadingLabel, children }: { query: StaffQuery<T>; loadingLabel: string; children(data: T): ReactNode }) {
  if (query.data !== undefined) {
    return (
      <Stack gap="4">
        <QueryNotice query={query} />
        {children(query.data)}
      </Stack>
    );
  }
  if (query.error !== undefined && !query.loading) {
    return (
      <Card.Root variant="elevated" bg="portal.white">
        <Card.Body>
          <LoadError error={query.error} onRetry={query.reload} />
        </Card.Body>
      </Card.Root>
    );
  }
  return (
    <Card.Root variant="elevated" bg="portal.white">
      <Card.Body>
        <LoadingSkeleton label={loadingLabel} />
      </Card.Body>
    </Card.Root>
  );
}
