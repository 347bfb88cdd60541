import { Box, Grid, Stack } from '@chakra-ui/react';
import { RequestFile, StaffRequest } from '../../../../domain/staff.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { BackToQueue } from '../shared/back-link.tsx';
import { VersionConflict } from '../shared/conflict-alert.tsx';
import { QueryView } from '../shared/query-view.tsx';
import { useStaffQuery } from '../shared/use-staff-query.ts';
import { useVersionedAction } from '../shared/use-versioned-action.ts';
import { ActionsCard } from './actions-card.tsx';
import { requestConflictChanges } from './conflict-diff.ts';
import { RequestSections } from './request-sections.tsx';
import { RequestSummary } from './request-summary.tsx';

function parseRequest(value: unknown): StaffRequest | null {
  const parsed = StaffRequest.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** One request for staff: its details and files, the money, the history, and the actions its status allows. */
export function RequestPage({ requestId }: { requestId: string }) {
  const query = useStaffQuery(`/staff/requests/${encodeURIComponent(requestId)}`, RequestFile, { table: 'staffRequests', key: requestId });
  return (
    <Stack gap="4">
      <BackToQueue />
      <QueryView query={query} loadingLabel="Loading the request">
        {(file) => <RequestView file={file} refreshing={query.loading} reload={query.reload} />}
      </QueryView>
    </Stack>
  );
}

function RequestView({ file, refreshing, reload }: { file: RequestFile; refreshing: boolean; reload(): void }) {
  const action = useVersionedAction({ record: file.request, parseCurrent: parseRequest, reload });
  const online = useOnline();
  return (
    <Stack gap="6">
      <RequestSummary file={file} />
      <VersionConflict
        title="Someone else changed this request while you were working on it"
        conflict={action.conflict}
        record={file.request}
        refreshing={refreshing}
        running={action.running}
        diff={requestConflictChanges}
        onRedo={() => void action.redo()}
        onDiscard={action.discard}
      />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 400px' }} gap="6" alignItems="start">
        {/* On phones the actions come first: they are what staff open the page for. */}
        <Box order={{ base: 0, lg: 1 }} minWidth="0" {...action.startProps}>
          <ActionsCard request={file.request} allowed={file.allowedActions} busy={action.running || refreshing || !online} offline={!online} perform={action.perform} />
        </Box>
        <Box order={{ base: 1, lg: 0 }} minWidth="0">
          <RequestSections file={file} refreshing={refreshing} reload={reload} />
        </Box>
      </Grid>
    </Stack>
  );
}
