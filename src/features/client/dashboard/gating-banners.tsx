import { Alert, Button, Stack } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { texts } from '../../../../domain/texts.ts';
import { useProfile } from '../../../lib/replica.ts';

/**
 * The dashboard's gating (spec section 4): a non-client waits for approval; a user who has not filled
 * the initial form is asked to. Read from the device's profile, so they show offline too.
 */
export function GatingBanners() {
  const profile = useProfile();
  // Staff run the workspace and have no case of their own to approve or describe.
  if (!profile || (profile.isStaff && !profile.isClient)) return null;
  const awaitingApproval = !profile.isClient;
  const formMissing = !profile.filledInitialForm;
  if (!awaitingApproval && !formMissing) return null;
  return (
    <Stack gap="3" mb="6">
      {awaitingApproval && (
        <Alert.Root status="info" borderRadius="l3" borderWidth="1px" borderColor="brand.200" bg="brand.50" color="portal.text">
          <Alert.Indicator color="brand.600" />
          <Alert.Title fontWeight="semibold">{texts.awaitingApproval}</Alert.Title>
        </Alert.Root>
      )}
      {formMissing && (
        <Alert.Root status="warning" borderRadius="l3" borderWidth="1px" borderColor="orange.200" alignItems="center" flexWrap="wrap" gap="3">
          <Alert.Indicator />
          <Alert.Content flex="1" minWidth="200px">
            <Alert.Title fontWeight="semibold">Initial form</Alert.Title>
            <Alert.Description>Please fill in the initial form so that we can start working on your case.</Alert.Description>
          </Alert.Content>
          <Button asChild colorPalette="brand" size="sm">
            <Link to="/initial-form">Fill in the initial form</Link>
          </Button>
        </Alert.Root>
      )}
    </Stack>
  );
}
