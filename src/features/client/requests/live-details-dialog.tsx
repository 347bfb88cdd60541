import { Box, Button, Link, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { MapPin } from 'lucide-react';
import { useEffect, useState } from 'react';
import { formatDate } from '../../../../domain/format.ts';
import { LiveDetails, type Visit } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { ApiError, NetworkError, apiGet } from '../../../lib/api.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { useReplica } from '../../../lib/replica.ts';
import { Popup } from '../../../components/popup.tsx';
import { iconSize } from '../../../components/theme-tokens.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { IpDetailsDialog } from './ip-details-dialog.tsx';
import { toolOf } from './use-requests.ts';

export function mapLink(visit: Visit): string | null {
  const lat = visit.ipDetails?.latitude;
  const lng = visit.ipDetails?.longitude;
  // Spec: the map link appears only when both coordinates exist.
  if (lat === null || lat === undefined || lat === '' || lng === null || lng === undefined || lng === '') return null;
  return `https://www.google.com/maps/search/?api=1&query=${lat},${lng}`;
}

/**
 * Live Details of a Track Master request. The answer is kept in Dexie so the popup opens offline
 * with the last known visits; online, it is fetched again each time the popup opens.
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
  const online = useOnline();
  const cached = useLiveQuery(async () => (await db.liveDetails.get(request.id)) ?? null, [db, request.id]);
  const [error, setError] = useState<string | null>(null);
  const [ipVisit, setIpVisit] = useState<Visit | null>(null);
  const toolId = toolOf(request)?.id ?? 'track-master';

  useEffect(() => {
    if (!online) return;
    let cancelled = false;
    setError(null);
    apiGet(`/tools/${toolId}/requests/${request.id}/live-details`, LiveDetails)
      .then((live) => db.liveDetails.put({ ...live, fetchedAt: Date.now() }))
      .catch((err: unknown) => {
        // Signed out meanwhile: the replica is closed and there is no one to tell.
        if (cancelled || db.hasBeenClosed()) return;
        if (err instanceof NetworkError) setError(texts.needsConnection);
        else setError(err instanceof ApiError ? err.message : texts.somethingWentWrong);
      });
    return () => {
      cancelled = true;
    };
  }, [db, online, request.id, toolId]);

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

  if (cached.data.length === 0) return <Text>{texts.noRelevantInformation}</Text>;

  return (
    <>
      <Table.ScrollArea borderWidth="1px" rounded="l2">
        <Table.Root size="sm" aria-label="Visits">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>Time</Table.ColumnHeader>
              <Table.ColumnHeader>IP</Table.ColumnHeader>
              <Table.ColumnHeader>Country</Table.ColumnHeader>
              <Table.ColumnHeader>ISP</Table.ColumnHeader>
              <Table.ColumnHeader>VPN</Table.ColumnHeader>
              <Table.ColumnHeader>
                <Box as="span" srOnly>
                  Actions
                </Box>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {cached.data.map((visit) => {
              const map = mapLink(visit);
              return (
                <Table.Row key={visit.id}>
                  <Table.Cell whiteSpace="nowrap">{formatDate(visit.time)}</Table.Cell>
                  <Table.Cell>{visit.ip}</Table.Cell>
                  <Table.Cell>{visit.country ?? '—'}</Table.Cell>
                  <Table.Cell>{visit.isp ?? '—'}</Table.Cell>
                  <Table.Cell>{visit.vpn ? 'Yes' : 'No'}</Table.Cell>
                  <Table.Cell>
                    <Stack direction="row" gap="2" align="center">
                      <Button size="xs" variant="outline" disabled={!visit.ipDetails} onClick={() => setIpVisit(visit)}>
                        IP Details
                      </Button>
                      {map && (
                        <Link href={map} target="_blank" rel="noopener noreferrer" aria-label={`Map of ${visit.ip}`} color="brand.fg">
                          <MapPin size={iconSize} aria-hidden="true" />
                        </Link>
                      )}
                    </Stack>
                  </Table.Cell>
                </Table.Row>
              );
            })}
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      {!online && (
        <Text mt="3" fontSize="xs" color="fg.muted">
          Saved on this device on {formatDate(cached.fetchedAt)}
        </Text>
      )}
      <IpDetailsDialog visit={ipVisit} onClose={() => setIpVisit(null)} />
    </>
  );
}
