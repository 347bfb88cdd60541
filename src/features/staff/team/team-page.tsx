import { Badge, Box, Button, Card, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { z } from 'zod';
import { StaffClient, TeamMember } from '../../../../domain/staff.ts';
import { apiSend } from '../../../lib/api.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { readRefusal } from '../shared/api-refusal.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { ClientLink } from '../shared/links.tsx';
import { QueryView } from '../shared/query-view.tsx';
import { EmptyText, SectionCard } from '../shared/section-card.tsx';
import { AdminHeading } from '../shared/admin-heading.tsx';
import { useStaffQuery } from '../shared/use-staff-query.ts';
import { AccountAccessButton } from '../shared/account-access-button.tsx';
import { useReplica } from '../../../lib/replica.ts';
import { AddStaffForm } from './add-staff-form.tsx';
import { AdminRoleButton } from './admin-role-button.tsx';

const Team = z.array(TeamMember);

/** Admins only (the route's guard): who has access to the staff workspace and who is an admin, and giving or taking either. */
export function TeamPage() {
  const query = useStaffQuery('/staff/team', Team);
  return (
    <Stack gap="6">
      <Card.Root variant="elevated" bg="portal.white">
        <Card.Header>
          <AdminHeading title="Team" />
        </Card.Header>
        <Card.Body>
          <Stack gap="2">
            <Heading as="h2" fontSize="1rem" fontWeight="semibold">
              Add a staff member
            </Heading>
            <Text color="fg.muted">The person needs an account in the portal already; they get access at once.</Text>
            <AddStaffForm onAdded={query.reload} />
          </Stack>
        </Card.Body>
      </Card.Root>
      <QueryView query={query} loadingLabel="Loading the team">
        {(members) => (
          <SectionCard title="Staff members" count={members.length}>
            <MemberList members={members} reload={query.reload} busy={query.loading} />
          </SectionCard>
        )}
      </QueryView>
    </Stack>
  );
}

function MemberList({ members, reload, busy }: { members: TeamMember[]; reload(): void; busy: boolean }) {
  const [revoking, setRevoking] = useState<TeamMember | null>(null);
  const { running, run } = useOnlineAction();
  const me = useReplica().uid;

  async function revoke(member: TeamMember) {
    const outcome = await run(() =>
      apiSend(`/staff/users/${encodeURIComponent(member.uid)}/role`, 'PUT', { version: member.version, staff: false }, StaffClient),
    );
    setRevoking(null);
    if (!outcome || (!outcome.ok && outcome.offline)) return;
    if (outcome.ok) {
      showMessage('Staff role revoked successfully.', 'success');
    } else {
      const refusal = readRefusal(outcome.error);
      showMessage(
        refusal.kind === 'conflict' ? 'Someone else changed this account while you were working on it. The list now shows the current state.' : refusal.message,
        'error',
      );
    }
    reload();
  }

  if (members.length === 0) return <EmptyText>No staff members yet.</EmptyText>;
  return (
    <>
      <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label="Staff members">
        {members.map((member) => (
          <Box as="li" key={member.uid} py="3" borderTopWidth="1px" borderColor="portal.border" _first={{ borderTopWidth: 0, pt: 0 }} data-testid="team-member" data-uid={member.uid}>
            <HStack justify="space-between" gap="3" wrap="wrap">
              <Stack gap="0" minWidth="0">
                <HStack gap="2" wrap="wrap">
                  <ClientLink uid={member.uid}>{member.name || member.email}</ClientLink>
                  <Badge colorPalette="purple" variant="subtle">
                    {member.isAdmin ? 'Admin' : 'Staff'}
                  </Badge>
                </HStack>
                <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
                  {member.email}
                </Text>
              </Stack>
              <HStack gap="2" wrap="wrap">
                {member.uid === me ? (
                  // The route refuses one's own roles: another admin changes them.
                  <Text fontSize="sm" color="fg.muted">
                    You
                  </Text>
                ) : (
                  <AdminRoleButton member={member} disabled={busy || running} onChanged={reload} />
                )}
                {!member.isAdmin && (
                  // An admin is staff by being an admin: there is no staff flag to take away.
                  <Button size="sm" variant="outline" colorPalette="red" disabled={busy || running} aria-label={`Revoke staff role of ${member.email}`} onClick={() => setRevoking(member)}>
                    Revoke
                  </Button>
                )}
                {member.uid !== me && <AccountAccessButton key={`${member.uid}-${member.disabled}`} size="sm" uid={member.uid} name={member.name || member.email} disabled={member.disabled} />}
              </HStack>
            </HStack>
          </Box>
        ))}
      </Stack>
      <ConfirmPopup
        open={revoking !== null}
        title="Revoke the staff role?"
        confirmLabel="Yes, revoke"
        danger
        busy={running}
        onConfirm={() => revoking && void revoke(revoking)}
        onClose={() => setRevoking(null)}
      >
        {revoking ? `${revoking.name || revoking.email} loses access to the staff workspace at once.` : ''}
      </ConfirmPopup>
    </>
  );
}
