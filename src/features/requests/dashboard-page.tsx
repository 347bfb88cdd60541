import { Card, IconButton, Stack, Text } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { texts } from '../../../domain/texts.ts';
import { requestPull } from '../../lib/data-services.ts';
import { showMessage } from '../../lib/ui-state.ts';
import { displayName, useProfile, useReplica } from '../../lib/replica.ts';
import { RequestsTable } from './requests-table.tsx';
import { StatusCards } from './status-cards.tsx';
import { ICON_SIZE } from './tool-icon.tsx';
import { ToolsCarousel } from './tools-carousel.tsx';
import { useStatusCounts } from './use-requests.ts';

/** The dashboard: welcome, status counts, the tools carousel and every request, all from the device replica. */
export function DashboardPage() {
  const db = useReplica();
  const profile = useProfile();
  const counts = useStatusCounts();
  const [refreshing, setRefreshing] = useState(false);

  async function refresh() {
    setRefreshing(true);
    try {
      // A refresh that reached the server and failed says so (offline, the device copy simply stays).
      if (await requestPull(db)) showMessage(texts.dashboardLoadFailed, 'error');
    } finally {
      setRefreshing(false);
    }
  }

  return (
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
      <ToolsCarousel />
      <RequestsTable
        title="Tools requests"
        showAmount
        actions={
          <IconButton aria-label="Refresh requests" variant="ghost" size="sm" loading={refreshing} onClick={() => void refresh()}>
            <RefreshCw size={ICON_SIZE} aria-hidden="true" />
          </IconButton>
        }
      />
    </Stack>
  );
}
