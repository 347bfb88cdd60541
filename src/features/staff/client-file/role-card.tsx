import { Badge, Button, HStack, Text } from '@chakra-ui/react';
import { ShieldCheck, ShieldOff } from 'lucide-react';
import { useState } from 'react';
import { StaffClient } from '../../../../domain/staff.ts';
import { apiSend } from '../../../lib/api.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { personName } from '../shared/format.ts';
import { OfflineHint } from '../shared/offline-hint.tsx';
import { SectionCard } from '../shared/section-card.tsx';
import type { VersionedAction } from '../shared/use-versioned-action.ts';

/** Admins only: give or take away the support staff role (the server checks the admin role too). */
export function RoleCard({ client, action }: { client: StaffClient; action: VersionedAction<StaffClient> }) {
  const [confirming, setConfirming] = useState(false);
  const online = useOnline();
  const grant = !client.isStaff;
  const label = grant ? 'Grant staff role' : 'Revoke staff role';

  async function change() {
    await action.perform({
      label,
      success: grant ? 'Staff role granted successfully.' : 'Staff role revoked successfully.',
      send: (version) => apiSend(`/staff/users/${encodeURIComponent(client.uid)}/role`, 'PUT', { version, staff: grant }, StaffClient),
    });
    setConfirming(false);
  }

  return (
    <SectionCard title="Role">
      <HStack justify="space-between" gap="4" wrap="wrap" {...action.startProps}>
        <HStack gap="2">
          <Text>Support staff:</Text>
          <Badge colorPalette={client.isStaff ? 'purple' : 'gray'} variant="subtle">
            {client.isAdmin ? 'Yes (administrator)' : client.isStaff ? 'Yes' : 'No'}
          </Badge>
        </HStack>
        {client.isAdmin ? (
          // Admins are staff by being admins; taking the staff flag away would change nothing.
          <Text color="fg.muted">Administrators always have staff access.</Text>
        ) : (
          <HStack gap="2" wrap="wrap">
            {!online && <OfflineHint />}
            <Button variant="outline" colorPalette={grant ? 'brand' : 'red'} onClick={() => setConfirming(true)} disabled={action.running || !online}>
              {grant ? <ShieldCheck size={18} aria-hidden="true" /> : <ShieldOff size={18} aria-hidden="true" />}
              {label}
            </Button>
          </HStack>
        )}
      </HStack>
      <ConfirmPopup
        open={confirming}
        title={grant ? 'Grant the staff role?' : 'Revoke the staff role?'}
        confirmLabel={grant ? 'Yes, grant' : 'Yes, revoke'}
        danger={!grant}
        busy={action.running}
        onConfirm={() => void change()}
        onClose={() => setConfirming(false)}
      >
        {grant
          ? `${personName(client)} will see every client's file and can act on requests.`
          : `${personName(client)} loses access to the staff workspace at once.`}
      </ConfirmPopup>
    </SectionCard>
  );
}
