import { DataList } from '@chakra-ui/react';
import type { Visit } from '../../domain/schemas.ts';
import { Popup } from './popup.tsx';

/** IP Details: the IP lookup of one visit, key by key. */
export function IpDetailsDialog({ visit, onClose }: { visit: Visit | null; onClose(): void }) {
  return (
    <Popup open={visit !== null} onClose={onClose} title="IP Details">
      {visit && (
        <DataList.Root orientation="horizontal" gap="2" size="sm">
          <DataList.Item>
            <DataList.ItemLabel minWidth="45%">ip</DataList.ItemLabel>
            <DataList.ItemValue>{visit.ip}</DataList.ItemValue>
          </DataList.Item>
          {Object.entries(visit.ipDetails ?? {}).map(([key, value]) => (
            <DataList.Item key={key}>
              <DataList.ItemLabel minWidth="45%">{key}</DataList.ItemLabel>
              <DataList.ItemValue wordBreak="break-word">{value === null || value === '' ? '—' : String(value)}</DataList.ItemValue>
            </DataList.Item>
          ))}
        </DataList.Root>
      )}
    </Popup>
  );
}
