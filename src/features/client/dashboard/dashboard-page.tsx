import { Box, Card, HStack, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { SettingsLink } from '../../../components/settings-link.tsx';
import { greetingName } from '../../../lib/display-name.ts';
import { useProfile } from '../../../lib/replica.ts';
import { GatingBanners } from './gating-banners.tsx';
import { PushOfferCard } from './push-offer-card.tsx';
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
        {/* The welcome card is also the user card here (greeting, name, settings): the shell leaves its own out on /, so the greeting shows once. */}
        <Card.Root as="section" aria-label="User" variant="outline" bg="brand.subtle" borderColor="brand.muted">
          <Card.Body>
            <HStack gap="3" alignItems="start">
              <Box flex="1" minWidth="0">
                <Text as="h1" fontSize="1.125rem" fontWeight="semibold" wordBreak="break-word">
                  Welcome back, <Text as="span">{greetingName(profile)}</Text>
                </Text>
                <Text color="fg.muted" mt="1">
                  Order a tool, follow your requests and settle their payments from here.
                </Text>
              </Box>
              <SettingsLink />
            </HStack>
          </Card.Body>
        </Card.Root>
        <PushOfferCard />
        <StatusCards counts={counts} />
        {tools}
        {requests}
      </Stack>
    </>
  );
}
