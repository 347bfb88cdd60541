import { Button, Dialog, List, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { StaffClient, type TeamMember } from '../../../../domain/staff.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { apiSend } from '../../../lib/api.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { readRefusal } from '../shared/api-refusal.ts';

/** What the admin role adds to the staff workspace: what the confirmation names, so nobody grants it blind. */
export const ADMIN_POWERS = ['approve payment details changes', 'edit business settings', 'create users', 'change roles, making or removing admins'] as const;

/**
 * Make admin / Remove admin for one team member, asked first (the route refuses one's own admin role and the last
 * admin, so the Team page never offers it on the signed-in admin's own row).
 */
export function AdminRoleButton({ member, disabled, onChanged }: { member: TeamMember; disabled: boolean; onChanged(): void }) {
  const [asking, setAsking] = useState(false);
  const { running, run } = useOnlineAction();
  const name = member.name || member.email;
  const granting = !member.isAdmin;

  async function change() {
    const outcome = await run(() => apiSend(`/staff/users/${encodeURIComponent(member.uid)}/role`, 'PUT', { version: member.version, admin: granting }, StaffClient));
    setAsking(false);
    if (!outcome || (!outcome.ok && outcome.offline)) return;
    if (outcome.ok) {
      showMessage(granting ? `${name} is now an admin.` : `${name} is no longer an admin, and stays a staff member.`, 'success');
    } else {
      const refusal = readRefusal(outcome.error);
      showMessage(
        refusal.kind === 'conflict' ? 'Someone else changed this account while you were working on it. The list now shows the current state.' : refusal.message,
        'error',
      );
    }
    onChanged();
  }

  return (
    <>
      <Button
        size="sm"
        variant="outline"
        colorPalette={granting ? 'brand' : 'red'}
        disabled={disabled || running}
        aria-label={granting ? `Make ${member.email} an admin` : `Remove the admin role of ${member.email}`}
        onClick={() => setAsking(true)}
      >
        {granting ? 'Make admin' : 'Remove admin'}
      </Button>
      <ConfirmPopup
        open={asking}
        title={granting ? `Make ${name} an admin?` : `Remove ${name} as admin?`}
        confirmLabel={granting ? 'Yes, make admin' : 'Yes, remove admin'}
        danger={!granting}
        busy={running}
        onConfirm={() => void change()}
        onClose={() => setAsking(false)}
      >
        <Stack gap="2">
          <Dialog.Description>{granting ? `As an admin, ${name} can:` : `${name} will no longer be able to:`}</Dialog.Description>
          <List.Root ps="5" data-testid="admin-powers">
            {ADMIN_POWERS.map((power) => (
              <List.Item key={power}>{power}</List.Item>
            ))}
          </List.Root>
          <Text>
            {granting
              ? 'It applies from their next action. They need their own second factor to use it.'
              : 'They stay a staff member. It applies from their next action.'}
          </Text>
        </Stack>
      </ConfirmPopup>
    </>
  );
}
