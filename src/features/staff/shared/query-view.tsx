import { Alert, Button, Card, Skeleton, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { texts } from '../../../../domain/texts.ts';
import { NetworkError } from '../../../lib/api.ts';
import { failureText } from '../../../lib/use-online-action.ts';
import type { StaffQuery } from './use-staff-query.ts';

/** What a failed read says: no connection is not an error of the data, so it gets the spec's offline text. */
export function loadFailureText(error: unknown): string {
  return error instanceof NetworkError ? texts.needsConnection : failureText(error);
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
    <Alert.Root status={error instanceof NetworkError ? 'warning' : 'error'} role="alert" borderRadius="l3" alignItems="center" flexWrap="wrap" gap="3">
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

/**
 * A server read's three states: a skeleton until the first answer, the error with Retry when there is
 * nothing to show, and the data (with the error above it when a reload failed over data already shown).
 */
export function QueryView<T>({ query, loadingLabel, children }: { query: StaffQuery<T>; loadingLabel: string; children(data: T): ReactNode }) {
  if (query.data !== undefined) {
    return (
      <Stack gap="4">
        {query.error !== undefined && !query.loading && <LoadError error={query.error} onRetry={query.reload} />}
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
