import { Card, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { displayName, useProfile } from '../../../lib/replica.ts';
import { GatingBanners } from './gating-banners.tsx';
import { StatusCards } from './status-cards.tsx';
import { useStatusCounts } from './use-status-counts.ts';

export interface DashboardPageProps {
  /** The tools carousel (the tools task's), composed by the route. */
  tools: ReactNode;
  /** Every request of the user (the requests task's table), composed by the route. */
  requests: ReactNode;
}

/** The dashboard: gating banners, welcome, status counts, then the tools and the requests, all from the device replica. */
export function DashboardPage({ tools, requests }: DashboardPageProps) {
  const profile = useProfile();
  const counts = useStatusCounts();
  return (
    <>
      <GatingBanners />
      <Stack gap="6">
        <Card.Root variant="outline" bg="brand.subtle" borderColor="brand.muted">
          <Card.Body>
            <Text as="h1" fontSize="1.125rem" fontWeight="semibold">
              Welcome back, {displayName(profile)}
            </Text>
            <Text color="fg.muted" mt="1">
              Order a tool, follow your requests and settle their payments from here.
            </Text>
          </Card.Body>
        </Card.Root>
        <StatusCards counts={counts} />
        {tools}
        {requests}
      </Stack>
    </>
  );
}
