import { DataList, Heading, Stack } from '@chakra-ui/react';
import type { Visit } from '../../domain/schemas.ts';
import { ipDetailGroups } from './ip-details.ts';
import { Popup } from './popup.tsx';

/** IP Details: what is known of one visit, in words, grouped as location, network and device. */
export function IpDetailsDialog({ visit, onClose }: { visit: Visit | null; onClose(): void }) {
  return (
    <Popup open={visit !== null} onClose={onClose} title="IP Details">
      {visit && (
        <Stack gap="5">
          {ipDetailGroups(visit).map((group) => (
            <Stack as="section" key={group.title} gap="2" aria-label={group.title} data-testid="ip-details-group">
              <Heading as="h3" fontSize="md" fontWeight="semibold">
                {group.title}
              </Heading>
              <DataList.Root orientation="horizontal" gap="2" size="sm">
                {group.items.map(({ label, value }) => (
                  <DataList.Item key={label}>
                    <DataList.ItemLabel minWidth="40%">{label}</DataList.ItemLabel>
                    <DataList.ItemValue wordBreak="break-word">{value}</DataList.ItemValue>
                  </DataList.Item>
                ))}
              </DataList.Root>
            </Stack>
          ))}
        </Stack>
      )}
    </Popup>
  );
}
