import { Box, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../../domain/format.ts';
import { texts } from '../../../../domain/texts.ts';
import { requestRef } from '../../../../domain/tools.ts';
import { type TrackingLink, trackingLinkAdvice } from '../../../../domain/tracking.ts';
import { ApiError, NetworkError } from '../../../lib/api-errors.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { Popup } from '../../../components/popup.tsx';
import { TrackingLinkItem } from '../../../components/tracking-link-item.tsx';
import { PreviewsList, VisitsList } from '../../../components/visits-list.tsx';
import { useOnline } from '../../../lib/pwa.ts';
import { fetchLiveDetails } from '../shared/live-details.ts';
import { toolOf } from './use-requests.ts';

/**
 * Live Details of a Track Master request: its tracking links (from the replica, so they show offline)
 * and the visits they captured. The visits stay behind the server's payment gate: they are fetched
 * when the popup opens and again whenever a link's counts move in the delta sync (a capture pokes the
 * client, the pull brings the link's new counts), so a visit shows within a second. The last answer is
 * kept in Dexie so the popup opens offline with the last known visits.
 */
export function LiveDetailsDialog({ request, onClose }: { request: LocalRequest | null; onClose(): void }) {
  return (
    <Popup open={request !== null} onClose={onClose} title="Live Details" size="xl">
      {request && <LiveDetailsBody key={request.id} request={request} />}
    </Popup>
  );
}

function LiveDetailsBody({ request }: { request: LocalRequest }) {
  const db = useReplica();
  const links = useLiveQuery(() => db.trackingLinks.where('productRequestId').equals(request.id).reverse().sortBy('createdAt'), [db, request.id]);
  const ref = requestRef(request);
  return (
    <Stack gap="6">
      {ref && (
        <Text fontSize="sm" data-testid="live-details-ref">
          {toolOf(request)?.header ?? request.productRequestType} request <Box as="span" fontFamily="mono">{ref}</Box>
        </Text>
      )}
      <TrackingLinks links={links} />
      <Stack gap="3">
        <Heading as="h3" fontSize="md" fontWeight="semibold">
          Visits
        </Heading>
        {links === undefined ? <Skeleton height="8" /> : <Visits request={request} captures={captureCount(links)} />}
      </Stack>
    </Stack>
  );
}

/** Changes whenever any link of the request records a visit or a preview: the signal to fetch the visits again. */
function captureCount(links: TrackingLink[]): number {
  return links.reduce((n, link) => n + link.visits + link.previews, 0);
}

function TrackingLinks({ links }: { links: TrackingLink[] | undefined }) {
  if (links === undefined) return <Skeleton height="8" />;
  return (
    <Stack gap="3" data-testid="tracking-links">
      <Heading as="h3" fontSize="md" fontWeight="semibold">
        Tracking links
      </Heading>
      {links.length === 0 ? (
        <Text color="fg.muted">Our team adds your tracking link here when your request is in progress.</Text>
      ) : (
        <>
          <Text fontSize="sm">{trackingLinkAdvice}</Text>
          <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label="Tracking links">
            {links.map((link) => (
              <TrackingLinkItem key={link.id} link={link} />
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}

function Visits({ request, captures }: { request: LocalRequest; captures: number }) {
  const db = useReplica();
  const online = useOnline();
  const cached = useLiveQuery(async () => (await db.liveDetails.get(request.id)) ?? null, [db, request.id]);
  // What was paid, as the replica has it now: a payment in full opens the server's gate, so it refetches too.
  const paid = useLiveQuery(async () => (await db.requests.get(request.id))?.paid ?? null, [db, request.id]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!online || paid === undefined) return;
    let cancelled = false;
    setError(null);
    fetchLiveDetails(db, request.id).catch((err: unknown) => {
      // Signed out meanwhile: the replica is closed and there is no one to tell.
      if (cancelled || db.hasBeenClosed()) return;
      if (err instanceof NetworkError) setError(texts.needsConnection);
      else setError(err instanceof ApiError ? err.message : texts.somethingWentWrong);
    });
    return () => {
      cancelled = true;
    };
  }, [db, online, request.id, captures, paid]);

  if (cached === undefined) return <Skeleton height="8" />;
  if (!cached) {
    if (!online) return <Text>{texts.needsConnection}</Text>;
    if (error) return <Text color="red.600">{error}</Text>;
    return (
      <Stack gap="2" aria-busy="true">
        <Skeleton height="8" />
        <Skeleton height="8" />
        <Skeleton height="8" />
      </Stack>
    );
  }

  if (typeof cached.data === 'number') {
    return (
      <Stack gap="4">
        <Text fontWeight="medium">{texts.liveDetailsUnpaid}</Text>
        <Stack gap="2" data-testid="live-placeholder">
          {Array.from({ length: cached.data }, (_, i) => (
            <Skeleton key={i} height="8" data-testid="live-placeholder-row" />
          ))}
        </Stack>
      </Stack>
    );
  }

  const people = cached.data.filter((visit) => !visit.preview);
  const previews = cached.data.filter((visit) => visit.preview);
  return (
    <Stack gap="4">
      {people.length === 0 ? <Text>{texts.noRelevantInformation}</Text> : <VisitsList visits={people} label="Visits" />}
      <PreviewsList visits={previews} />
      {!online && (
        <Text fontSize="xs" color="fg.muted">
          Saved on this device on {formatDate(cached.fetchedAt)}
        </Text>
      )}
    </Stack>
  );
}
