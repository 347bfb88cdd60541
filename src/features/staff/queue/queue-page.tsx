import { Badge, Button, Card, Center, HStack, Heading, IconButton, Stack, Tabs, Text } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { texts } from '../../../../domain/texts.ts';
import { queueTabs } from '../../../../domain/queue-tabs.ts';
import { type QueueItem, type QueueTab, queueTabLabel } from '../../../../domain/staff.ts';
import { LoadError, LoadingSkeleton, QueryNotice } from '../shared/query-view.tsx';
import { LeadsList, RefundsQueueList, RequestsList, ThreadsList } from './queue-list.tsx';
import { QueueSearch } from './queue-search.tsx';
import { useQueue } from './use-queue.ts';

const emptyText: Record<QueueTab, string> = {
  leads: 'No leads are waiting for approval.',
  threads: 'No conversation is waiting for our reply.',
  refunds: 'No refund requests are waiting for a decision.',
  pending: 'No requests are waiting for a price.',
  awaiting: 'No requests are awaiting payment.',
  inProgress: 'No requests are in progress.',
  done: 'No requests are done yet.',
};

export interface QueuePageProps {
  tab: QueueTab;
  q: string;
  /** The route keeps both in the URL, so a reload or a shared link opens the same list. */
  onChange(next: { tab: QueueTab; q: string }): void;
}

/** The staff queue: one tab per stage of the work, oldest first, searchable. */
export function QueuePage({ tab, q, onChange }: QueuePageProps) {
  const queue = useQueue(tab, q);

  return (
    <Card.Root variant="elevated" bg="portal.white" minWidth="0">
      <Card.Header px={{ base: '4', md: '6' }}>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Heading as="h1" textStyle="h1">
            Staff workspace
          </Heading>
          <HStack gap="2" flex={{ base: '1 1 100%', md: '0 1 auto' }} justify="end">
            <QueueSearch value={q} onSearch={(next) => onChange({ tab, q: next })} />
            <IconButton aria-label="Refresh queue" variant="ghost" size="sm" loading={queue.query.loading && queue.items !== undefined} onClick={queue.query.reload}>
              <RefreshCw size={18} aria-hidden="true" />
            </IconButton>
          </HStack>
        </HStack>
      </Card.Header>
      <Card.Body pt="2" px={{ base: '4', md: '6' }} minWidth="0">
        <Tabs.Root value={tab} onValueChange={(e) => onChange({ tab: e.value as QueueTab, q })} variant="enclosed" lazyMount unmountOnExit>
          <Tabs.List flexWrap="wrap" bg="portal.backgroundAlt" aria-label="Queue">
            {queueTabs.map((t) => (
              <Tabs.Trigger key={t} value={t} gap="2">
                {queueTabLabel[t]}
                {/* On the selected (solid blue) tab a white badge; elsewhere a blue one. */}
                <Badge size="sm" variant="solid" colorPalette="brand" bg={t === tab ? 'portal.white' : undefined} color={t === tab ? 'brand.fg' : undefined} data-testid={`count-${t}`}>
                  {queue.counts?.[t] ?? '…'}
                </Badge>
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          <Tabs.Content value={tab} pt="4">
            <QueueBody tab={tab} q={q} queue={queue} />
          </Tabs.Content>
        </Tabs.Root>
      </Card.Body>
    </Card.Root>
  );
}

function QueueBody({ tab, q, queue }: { tab: QueueTab; q: string; queue: ReturnType<typeof useQueue> }) {
  const { items, query } = queue;
  if (items === undefined) {
    return query.error !== undefined && !query.loading ? <LoadError error={query.error} onRetry={query.reload} /> : <LoadingSkeleton label="Loading the queue" />;
  }
  return (
    <Stack gap="4">
      <QueryNotice query={query} />
      {items.length === 0 ? (
        <Text color="fg.muted" py="4">
          {q ? texts.nothingFound : emptyText[tab]}
        </Text>
      ) : (
        <TabItems tab={tab} items={items} />
      )}
      {queue.nextCursor && (
        <Center>
          <Button variant="outline" colorPalette="brand" loading={queue.loadingMore} onClick={() => void queue.loadMore()}>
            Load more
          </Button>
        </Center>
      )}
    </Stack>
  );
}

function ofKind<K extends QueueItem['kind']>(items: QueueItem[], kind: K): Extract<QueueItem, { kind: K }>[] {
  return items.filter((i): i is Extract<QueueItem, { kind: K }> => i.kind === kind);
}

/** Each tab lists one kind of item, in the columns that kind needs. */
function TabItems({ tab, items }: { tab: QueueTab; items: QueueItem[] }) {
  const label = queueTabLabel[tab];
  switch (tab) {
    case 'leads':
      return <LeadsList leads={ofKind(items, 'lead')} label={label} />;
    case 'threads':
      return <ThreadsList threads={ofKind(items, 'thread')} label={label} />;
    case 'refunds':
      return <RefundsQueueList refunds={ofKind(items, 'refund')} label={label} />;
    default:
      return <RequestsList requests={ofKind(items, 'request')} label={label} />;
  }
}
