import { Badge, Box, Button, HStack, Link, Stack, Table, Text } from '@chakra-ui/react';
import { MapPin } from 'lucide-react';
import { useState } from 'react';
import { formatDateTime } from '../../domain/format.ts';
import type { Visit } from '../../domain/schemas.ts';
import { IpDetailsDialog } from './ip-details-dialog.tsx';
import { iconSize } from './theme-tokens.ts';

function mapLink(visit: Visit): string | null {
  const lat = visit.ipDetails?.latitude;
  const lng = visit.ipDetails?.longitude;
  // Spec: the map link appears only when both coordinates exist.
  if (lat === null || lat === undefined || lat === '' || lng === null || lng === undefined || lng === '') return null;
  return `https://www.google.com/maps/search/?api=1&query=${lat},${lng}`;
}

/** "Lagos, Nigeria": the most precise place the lookup gave, or "—". */
function placeOf(visit: Visit): string {
  const city = visit.ipDetails?.city_name;
  const place = [typeof city === 'string' && city !== '-' ? city : null, visit.country].filter(Boolean).join(', ');
  return place || '—';
}

/** "Chrome 131 · Android 14 · mobile", or "—" for visits recorded before user agents were. */
function deviceOf(visit: Visit): string {
  return [visit.browser, visit.os, visit.device].filter(Boolean).join(' · ') || '—';
}

/**
 * The visits of a Track Master link, newest first: a table on wide screens, one card per visit on
 * phones (a seven-column table would scroll sideways inside the popup at 375 px). Link previews by
 * messaging apps are the caller's to show apart.
 */
export function VisitsList({ visits, label }: { visits: Visit[]; label: string }) {
  const [ipVisit, setIpVisit] = useState<Visit | null>(null);
  return (
    <>
      <Box hideBelow="md">
        {/* Four columns whose cells wrap: it fits the staff page's main column and the popup without scrolling sideways. */}
        <Table.Root size="sm" aria-label={label} borderWidth="1px" rounded="l2">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>When</Table.ColumnHeader>
              <Table.ColumnHeader>Where from</Table.ColumnHeader>
              <Table.ColumnHeader>Device</Table.ColumnHeader>
              <Table.ColumnHeader>
                <Box as="span" srOnly>
                  Actions
                </Box>
              </Table.ColumnHeader>
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {visits.map((visit) => (
              <Table.Row key={visit.id} data-testid="visit-row" verticalAlign="top">
                <Table.Cell>{formatDateTime(visit.time)}</Table.Cell>
                <Table.Cell>
                  <VisitOrigin visit={visit} />
                </Table.Cell>
                <Table.Cell wordBreak="break-word">{deviceOf(visit)}</Table.Cell>
                <Table.Cell>
                  <VisitActions visit={visit} onIpDetails={setIpVisit} />
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      <Stack as="ul" hideFrom="md" gap="2" listStyleType="none" m="0" p="0" aria-label={label}>
        {visits.map((visit) => (
          <Box as="li" key={visit.id} borderWidth="1px" borderColor="portal.border" rounded="l2" p="3" data-testid="visit-card">
            <HStack justify="space-between" align="start" gap="2">
              <Stack gap="0.5" minWidth="0">
                <VisitOrigin visit={visit} />
                <Text fontSize="sm" color="fg.muted">
                  {formatDateTime(visit.time)} · {deviceOf(visit)}
                </Text>
              </Stack>
              <VisitActions visit={visit} onIpDetails={setIpVisit} />
            </HStack>
          </Box>
        ))}
      </Stack>
      <IpDetailsDialog visit={ipVisit} onClose={() => setIpVisit(null)} />
    </>
  );
}

/** The place in bold, then the address and the network, with a VPN mark when the network rents out servers. */
function VisitOrigin({ visit }: { visit: Visit }) {
  return (
    <Stack gap="0.5" minWidth="0">
      <Text fontWeight="semibold">{placeOf(visit)}</Text>
      <Text fontSize="sm" wordBreak="break-word">
        {visit.ip} · {visit.isp ?? '—'}
        {visit.vpn && (
          <Badge ms="2" colorPalette="orange" variant="subtle">
            VPN
          </Badge>
        )}
      </Text>
    </Stack>
  );
}

function VisitActions({ visit, onIpDetails }: { visit: Visit; onIpDetails(visit: Visit): void }) {
  const map = mapLink(visit);
  return (
    <Stack direction="row" gap="2" align="center">
      <Button size="xs" variant="outline" disabled={!visit.ipDetails} onClick={() => onIpDetails(visit)}>
        IP Details
      </Button>
      {map && (
        <Link href={map} target="_blank" rel="noopener noreferrer" aria-label={`Map of ${visit.ip}`} color="brand.fg">
          <MapPin size={iconSize} aria-hidden="true" />
        </Link>
      )}
    </Stack>
  );
}

/** Link previews: a messaging app fetched the link to draw its preview. Shown apart, never counted as a visit. */
export function PreviewsList({ visits }: { visits: Visit[] }) {
  if (visits.length === 0) return null;
  return (
    <Stack gap="1" data-testid="link-previews">
      <Text fontWeight="medium">Link previews ({visits.length})</Text>
      <Text fontSize="sm" color="fg.muted">
        A messaging app opened the link to draw its preview when it was sent. These are not visits by a person.
      </Text>
      <Stack as="ul" gap="1" listStyleType="none" m="0" p="0" aria-label="Link previews">
        {visits.map((visit) => (
          <Text as="li" key={visit.id} fontSize="sm">
            {visit.preview} · {formatDateTime(visit.time)} · {placeOf(visit)}
          </Text>
        ))}
      </Stack>
    </Stack>
  );
}
