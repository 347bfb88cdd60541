import { Field, Input, SimpleGrid, Stack, Switch, Tabs } from '@chakra-ui/react';
import { PageCard } from '../../../components/page-card.tsx';
import type { ReactNode } from 'react';
import { useProfile } from '../../../lib/replica.ts';
import { SecurityTab } from './security-tab.tsx';

/**
 * /settings: Profile, Billings, Notifications and Security (spec section 2). The Billings tab is the billing
 * task's, composed by the route; the tabs mount lazily, so it reads the replica only when opened.
 */
export function SettingsPage({ billing }: { billing: ReactNode }) {
  return (
    <PageCard title="Settings">
      <Tabs.Root defaultValue="profile" variant="enclosed" lazyMount>
        <Tabs.List flexWrap="wrap" bg="portal.backgroundAlt">
          <Tabs.Trigger value="profile">Profile</Tabs.Trigger>
          <Tabs.Trigger value="billings">Billings</Tabs.Trigger>
          <Tabs.Trigger value="notifications">Notifications</Tabs.Trigger>
          <Tabs.Trigger value="security">Security</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="profile" pt="6">
          <ProfileTab />
        </Tabs.Content>
        <Tabs.Content value="billings" pt="6">
          {billing}
        </Tabs.Content>
        <Tabs.Content value="notifications" pt="6">
          <NotificationsTab />
        </Tabs.Content>
        <Tabs.Content value="security" pt="6">
          <SecurityTab />
        </Tabs.Content>
      </Tabs.Root>
    </PageCard>
  );
}

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <Input readOnly value={value} bg="portal.background" />
    </Field.Root>
  );
}

/** Read-only: first and last name when the profile has them apart, otherwise the full name. */
function ProfileTab() {
  const profile = useProfile();
  if (!profile) return null;
  const first = profile.firstName ?? '';
  const last = profile.lastName ?? '';
  return (
    <SimpleGrid columns={{ base: 1, md: 2 }} gap="4" maxWidth="720px">
      {first && last ? (
        <>
          <ReadOnlyField label="First Name" value={first} />
          <ReadOnlyField label="Last Name" value={last} />
        </>
      ) : (
        <ReadOnlyField label="Full Name" value={first || last} />
      )}
      <ReadOnlyField label="Email" value={profile.email} />
    </SimpleGrid>
  );
}

/** Both switches are on and disabled (spec section 2): the preferences are not user-editable yet. */
function NotificationsTab() {
  return (
    <Stack gap="4">
      {['General Updates', 'Personal Updates'].map((label) => (
        <Switch.Root key={label} checked disabled>
          <Switch.HiddenInput />
          <Switch.Control>
            <Switch.Thumb />
          </Switch.Control>
          <Switch.Label>{label}</Switch.Label>
        </Switch.Root>
      ))}
    </Stack>
  );
}
