import { Badge, Button, Card, HStack, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { UserCheck } from 'lucide-react';
import { useState } from 'react';
import { ClientFile, StaffClient, type StaffClient as Client } from '../../../../domain/staff.ts';
import { apiSend } from '../../../lib/api.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { hasRole } from '../../../../domain/roles.ts';
import { useProfile } from '../../../lib/replica.ts';
import { BackToQueue } from '../shared/back-link.tsx';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { VersionConflict } from '../shared/conflict-alert.tsx';
import { personName } from '../shared/format.ts';
import { OfflineHint } from '../shared/offline-hint.tsx';
import { QueryView } from '../shared/query-view.tsx';
import { useVersionedAction } from '../shared/use-versioned-action.ts';
import { useStaffQuery } from '../shared/use-staff-query.ts';
import { ClientSections } from './client-sections.tsx';
import { clientConflictChanges, parseClient } from './client-conflict.ts';
import { InitialFormCard, ProfileCard } from './profile-cards.tsx';
import { RoleCard } from './role-card.tsx';
import { AccountAccessButton } from '../shared/account-access-button.tsx';
import { ExportDataButton } from './export-data-button.tsx';
import { SectionCard } from '../shared/section-card.tsx';

/** A client's whole file for support: who they are, what they asked, paid and sent, and what was done. */
export function ClientFilePage({ uid }: { uid: string }) {
  const query = useStaffQuery(`/staff/clients/${encodeURIComponent(uid)}`, ClientFile, { table: 'staffClients', key: uid });
  return (
    <Stack gap="4">
      <BackToQueue />
      <QueryView query={query} loadingLabel="Loading the client">
        {(file) => <ClientFileView file={file} refreshing={query.loading} reload={query.reload} />}
      </QueryView>
    </Stack>
  );
}

/** A lead can be approved; staff and admins are not clients and are never approved as one. */
function isLead(client: Client): boolean {
  return !client.isClient && !client.isStaff && !client.isAdmin;
}

function ClientFileView({ file, refreshing, reload }: { file: ClientFile; refreshing: boolean; reload(): void }) {
  const { client } = file;
  // A few staff controls (roles) are the admins' only; the server checks the role too.
  const myProfile = useProfile();
  const isAdmin = hasRole(myProfile, 'admin');
  const me = myProfile?.uid;
  const online = useOnline();
  const action = useVersionedAction({ record: client, parseCurrent: parseClient, reload });
  const [confirming, setConfirming] = useState(false);
  const path = encodeURIComponent(client.uid);

  async function approve() {
    await action.perform({
      label: 'Approve',
      success: 'Client approved successfully.',
      send: (version) => apiSend(`/staff/clients/${path}/approval`, 'POST', { version }, StaffClient),
    });
    setConfirming(false);
  }

  return (
    <Stack gap="6">
      <Card.Root variant="elevated" bg="portal.white">
        <Card.Body>
          <HStack justify="space-between" align="start" gap="4" wrap="wrap">
            <Stack gap="1" minWidth="0">
              <HStack gap="2" wrap="wrap">
                <Heading as="h1" textStyle="h1" wordBreak="break-word">
                  {personName(client)}
                </Heading>
                <RoleBadges client={client} />
              </HStack>
              <Text color="fg.muted" wordBreak="break-all">
                {client.email}
              </Text>
            </Stack>
            {isLead(client) && (
              <Stack gap="1" align={{ base: 'start', sm: 'end' }} {...action.startProps}>
                <Button colorPalette="brand" onClick={() => setConfirming(true)} disabled={action.running || !online}>
                  <UserCheck size={18} aria-hidden="true" />
                  Approve
                </Button>
                {!online && <OfflineHint />}
              </Stack>
            )}
          </HStack>
        </Card.Body>
      </Card.Root>
      <VersionConflict
        title="Someone else changed this client while you were working on it"
        conflict={action.conflict}
        record={client}
        refreshing={refreshing}
        running={action.running}
        diff={clientConflictChanges}
        onRedo={() => void action.redo()}
        onDiscard={action.discard}
      />
      <SimpleGrid columns={{ base: 1, lg: 2 }} gap="6" alignItems="start">
        <ProfileCard client={client} />
        <InitialFormCard client={client} />
      </SimpleGrid>
      <SectionCard title="Client data">
        <Stack gap="3" align="start">
          <Text color="fg.muted" fontSize="sm">
            Everything the portal holds on {personName(client)} as one JSON file: profile, requests, payments, refunds, conversations, notifications, file details and
            devices. No internal notes and no security codes. You confirm your second factor again if it was more than 5 minutes ago; every export is in the history.
          </Text>
          <ExportDataButton uid={client.uid} name={personName(client)} />
        </Stack>
      </SectionCard>
      {isAdmin && <RoleCard client={client} action={action} />}
      {isAdmin && client.uid !== me && (
        <SectionCard title="Account access">
          <AccountAccessButton key={`${client.uid}-${client.disabled}`} uid={client.uid} name={personName(client)} disabled={client.disabled} />
        </SectionCard>
      )}
      <ClientSections file={file} refreshing={refreshing} reload={reload} />
      <ConfirmPopup
        open={confirming}
        title="Approve this client?"
        confirmLabel="Yes, approve"
        busy={action.running}
        onConfirm={() => void approve()}
        onClose={() => setConfirming(false)}
      >
        {`${personName(client)} becomes a client and can order tools.`}
      </ConfirmPopup>
    </Stack>
  );
}

function RoleBadges({ client }: { client: Client }) {
  return (
    <>
      {client.isAdmin ? (
        <Badge colorPalette="purple" variant="subtle">
          Admin
        </Badge>
      ) : client.isStaff ? (
        <Badge colorPalette="purple" variant="subtle">
          Staff
        </Badge>
      ) : client.isClient ? (
        <Badge colorPalette="green" variant="subtle">
          Client
        </Badge>
      ) : (
        <Badge colorPalette="orange" variant="subtle">
          Lead
        </Badge>
      )}
    </>
  );
}
