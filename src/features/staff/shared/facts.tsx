import { DataList } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** Label / value pairs (profile, answers): the label column takes 40%, long values wrap. */
export function Facts({ items, label }: { items: { label: string; value: ReactNode }[]; label?: string }) {
  return (
    <DataList.Root orientation="horizontal" gap="3" size="md" aria-label={label}>
      {items.map((item) => (
        <DataList.Item key={item.label} alignItems="start">
          <DataList.ItemLabel minWidth="40%">{item.label}</DataList.ItemLabel>
          <DataList.ItemValue wordBreak="break-word">{item.value}</DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}
