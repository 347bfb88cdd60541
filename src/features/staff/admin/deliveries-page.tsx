import { Badge, Box, Button, Card, Field, HStack, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { RotateCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { z } from 'zod';
import { formatDateTime } from '../../../../domain/format.ts';
import { DeliveryItem } from '../../../../domain/push.ts';
import { apiRequest, readData } from '../../../lib/api.ts';
import { ApiError } from '../../../lib/api-errors.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { AdminHeading } from '../shared/admin-heading.tsx';
import { QueryView } from '../shared/query-view.tsx';
import { EmptyText, SectionCard } from '../shared/section-card.tsx';
import { useStaffQuery } from '../shared/use-staff-query.ts';
import { useAdminFailure } from './admin-shared.tsx';
import {
  UNKNOWN_RETRY_WARNING,
  canSendAgain,
  channelLabel,
  type DeliveryFilter,
  deliveryFilters,
  eventLabel,
  needsConfirmation,
  stateColor,
  stateLabel,
} from './delivery-labels.ts';

const Deliveries = z.array(DeliveryItem);
const LIMIT = 100;

/**
 * Admin: the pushes and emails that did not go (docs/decisions/029-deliveries.md), newest first, and sending one
 * again. Read online only, like the team list: the copy on a device would be stale by the time anyone acted on it.
 */
export function DeliveriesPage() {
  const [filter, setFilter] = useState<DeliveryFilter>('failed,unknown');
  const query = useStaffQuery(`/admin/deliveries?state=${filter}&limit=${LIMIT}`, Deliveries);
  return (
    <Stack gap="6">
      <Card.Root variant="elevated" bg="portal.white">
        <Card.Header>
          <AdminHeading title="Notification delivery" />
        </Card.Header>
        <Card.Body>
          <Stack gap="4">
            <Text color="fg.muted">
              Pushes and emails the server could not deliver. Failed ones were refused or kept failing after their retries. Unknown ones were being sent when the
              server stopped, so they may have arrived.
            </Text>
            <HStack gap="3" align="end" wrap="wrap">
              <Field.Root maxWidth="sm" flex="1" minWidth="200px">
                <Field.Label>Show</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field value={filter} onChange={(e) => setFilter(deliveryFilters.find((f) => f.value === e.target.value)?.value ?? 'failed,unknown')}>
                    {deliveryFilters.map((f) => (
                      <option key={f.value} value={f.value}>
                        {f.label}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
              </Field.Root>
              <Button variant="outline" onClick={query.reload} loading={query.loading && query.data !== undefined}>
                <RotateCw size={16} aria-hidden="true" />
                Refresh list
              </Button>
            </HStack>
          </Stack>
        </Card.Body>
      </Card.Root>
      <QueryView query={query} loadingLabel="Loading the deliveries">
        {(items) => (
          <SectionCard title="Deliveries" count={items.length}>
            <DeliveryList items={items} fetchedAt={query.fetchedAt} reload={query.reload} empty={deliveryFilters.find((f) => f.value === filter)?.empty} />
          </SectionCard>
        )}
      </QueryView>
    </Stack>
  );
}

export function DeliveryList({ items, fetchedAt, reload, empty = deliveryFilters[0].empty }: { items: DeliveryItem[]; fetchedAt?: number; reload(): void; empty?: string }) {
  // Rows sent again since the list was fetched, as the server answered (queued); a new answer replaces them.
  const [queued, setQueued] = useState<Record<string, DeliveryItem>>({});
  const [confirming, setConfirming] = useState<DeliveryItem | null>(null);
  // One Idempotency-Key per row and attempt: a send lost on the way is repeated with the same key, so it queues once.
  const keys = useRef(new Map<string, string>());
  const { running, run } = useOnlineAction();
  const onFailure = useAdminFailure();

  useEffect(() => setQueued({}), [fetchedAt]);

  async function sendAgain(item: DeliveryItem) {
    let key = keys.current.get(item.id);
    if (!key) keys.current.set(item.id, (key = crypto.randomUUID()));
    const idempotencyKey = key;
    const outcome = await run(async () =>
      readData(await apiRequest(`/admin/deliveries/${encodeURIComponent(item.id)}/retry`, { method: 'POST', headers: { 'Idempotency-Key': idempotencyKey } }), DeliveryItem),
    );
    setConfirming(null);
    if (!outcome || (!outcome.ok && outcome.offline)) return;
    if (outcome.ok) {
      keys.current.delete(item.id);
      // The answer does not carry the address: the row keeps the one it showed.
      setQueued((q) => ({ ...q, [item.id]: { ...item, ...outcome.value, recipientEmail: item.recipientEmail } }));
      showMessage('Queued to be sent again.', 'success');
      return;
    }
    // The server's own words (409: it is no longer failed or unknown); the list then shows where it is now.
    onFailure(outcome.error);
    if (outcome.error instanceof ApiError && (outcome.error.status === 409 || outcome.error.status === 404)) {
      keys.current.delete(item.id);
      reload();
    }
  }

  function onSendAgain(item: DeliveryItem) {
    if (needsConfirmation(item)) setConfirming(item);
    else void sendAgain(item);
  }

  if (items.length === 0) return <EmptyText>{empty}</EmptyText>;
  const rows = items.map((item) => queued[item.id] ?? item);
  const action = (item: DeliveryItem) =>
    canSendAgain(item) ? (
      <Button size="sm" variant="outline" colorPalette="brand" disabled={running} aria-label={`Send again: ${eventLabel(item.eventKind)} to ${recipient(item)}`} onClick={() => onSendAgain(item)}>
        Send again
      </Button>
    ) : null;

  return (
    <>
      <Box hideBelow="md">
        <Table.ScrollArea maxWidth="100%">
          <Table.Root size="sm" aria-label="Deliveries">
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>When</Table.ColumnHeader>
                <Table.ColumnHeader>Event</Table.ColumnHeader>
                <Table.ColumnHeader>Channel</Table.ColumnHeader>
                <Table.ColumnHeader>Recipient</Table.ColumnHeader>
                <Table.ColumnHeader>State</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">Attempts</Table.ColumnHeader>
                <Table.ColumnHeader>Last answer</Table.ColumnHeader>
                <Table.ColumnHeader>
                  <Box srOnly>Action</Box>
                </Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {rows.map((item) => (
                <Table.Row key={item.id} data-testid="delivery" data-delivery-id={item.id} data-state={item.state}>
                  <Table.Cell whiteSpace="nowrap">{formatDateTime(item.createdAt)}</Table.Cell>
                  <Table.Cell>{eventLabel(item.eventKind)}</Table.Cell>
                  <Table.Cell>{channelLabel[item.channel]}</Table.Cell>
                  <Table.Cell whiteSpace="normal" wordBreak="break-all" minWidth="140px">
                    {recipient(item)}
                  </Table.Cell>
                  <Table.Cell>
                    <StateBadge item={item} />
                  </Table.Cell>
                  <Table.Cell textAlign="end">{item.attempts}</Table.Cell>
                  <Table.Cell whiteSpace="normal" wordBreak="break-word" minWidth="160px">
                    <LastAnswer item={item} />
                  </Table.Cell>
                  <Table.Cell textAlign="end">{action(item)}</Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      </Box>
      <Stack as="ul" hideFrom="md" gap="0" listStyleType="none" m="0" p="0" aria-label="Deliveries">
        {rows.map((item) => (
          <Box as="li" key={item.id} py="3" borderTopWidth="1px" borderColor="portal.border" _first={{ borderTopWidth: 0, pt: 0 }} data-testid="delivery-card" data-delivery-id={item.id}>
            <Stack gap="1">
              <HStack justify="space-between" gap="2" wrap="wrap">
                <Text fontWeight="semibold">{eventLabel(item.eventKind)}</Text>
                <StateBadge item={item} />
              </HStack>
              <Text fontSize="sm" wordBreak="break-all">
                {channelLabel[item.channel]} to {recipient(item)}
              </Text>
              <Text fontSize="sm" color="fg.muted">
                {formatDateTime(item.createdAt)} · {item.attempts} {item.attempts === 1 ? 'attempt' : 'attempts'}
              </Text>
              <Text fontSize="sm" color="fg.muted" wordBreak="break-word">
                <LastAnswer item={item} />
              </Text>
              {canSendAgain(item) && <Box pt="1">{action(item)}</Box>}
            </Stack>
          </Box>
        ))}
      </Stack>
      <ConfirmPopup
        open={confirming !== null}
        title="Send it again?"
        confirmLabel="Send again"
        busy={running}
        onConfirm={() => confirming && void sendAgain(confirming)}
        onClose={() => setConfirming(null)}
      >
        {UNKNOWN_RETRY_WARNING}
      </ConfirmPopup>
    </>
  );
}

function recipient(item: DeliveryItem): string {
  if (item.channel === 'fanout') return 'everyone';
  return item.recipientEmail ?? item.recipientUid ?? '—';
}

function StateBadge({ item }: { item: DeliveryItem }) {
  return (
    <Badge colorPalette={stateColor[item.state]} variant="subtle">
      {stateLabel[item.state]}
    </Badge>
  );
}

/**
 * The push service's or mail server's last status and error (the status once: the worker's error text often names
 * it already); a skipped delivery says why it was skipped.
 */
export function lastAnswer(item: DeliveryItem): string {
  const text = item.lastError ?? item.skipReason;
  const status = item.lastStatus !== null && !text?.includes(String(item.lastStatus)) ? String(item.lastStatus) : null;
  const parts = [status, text].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : '—';
}

function LastAnswer({ item }: { item: DeliveryItem }) {
  return <>{lastAnswer(item)}</>;
}
