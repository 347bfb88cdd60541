import { Card, Center, HStack, Spinner, Text } from '@chakra-ui/react';
import { ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { useProfile } from '../../../lib/replica.ts';

export const staffOnlyText = 'This workspace is for support staff only.';
export const adminOnlyText = 'This page is for administrators only.';

function Refusal({ text }: { text: string }) {
  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth="640px">
      <Card.Body>
        <HStack role="alert" gap="3" p="4" borderRadius="l2" bg="orange.50" color="orange.800" borderWidth="1px" borderColor="orange.200">
          <ShieldAlert size={22} aria-hidden="true" />
          <Text fontWeight="medium">{text}</Text>
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * Shows its children only to the roles allowed. The server refuses these users with 403 anyway; the gate
 * saves them a screen of errors. Roles come from the profile on the device, refreshed by every sync.
 */
export function RoleGate({ role, children }: { role: 'staff' | 'admin'; children: ReactNode }) {
  const profile = useProfile();
  if (profile === undefined) {
    return (
      <Center py="10">
        <Spinner color="brand.solid" aria-label="Loading" />
      </Center>
    );
  }
  // Admins are staff too, whatever an older replica row says.
  const allowed = role === 'admin' ? !!profile?.isAdmin : !!profile && (profile.isStaff || profile.isAdmin);
  if (!allowed) return <Refusal text={role === 'admin' ? adminOnlyText : staffOnlyText} />;
  return <>{children}</>;
}

/** Whether the signed-in user is an admin: a few staff controls (roles) are theirs only. */
export function useIsAdmin(): boolean {
  return !!useProfile()?.isAdmin;
}
