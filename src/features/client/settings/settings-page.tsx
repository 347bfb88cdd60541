import { Field, Input, SimpleGrid, Tabs } from '@chakra-ui/react';
import { PageCard } from '../../../components/page-card.tsx';
import type { ReactNode } from 'react';
import { greetingName } from '../../../lib/display-name.ts';
import { useProfile } from '../../../lib/replica.ts';
import type { SettingsTab } from '../../../lib/deep-links.ts';
import { NotificationsTab } from './notifications-tab.tsx';
import { SecurityTab } from './security-tab.tsx';

/**
 * /settings: Profile, Billings, Notifications and Security (spec section 2); the open tab is the URL's (?tab=billings). The Billings tab is the billing
 * task's, composed by the route; the tabs mount lazily, so it reads the replica only when opened.
 */
export function SettingsPage({ billing, tab = 'profile', onTab }: { billing: ReactNode; tab?: SettingsTab; onTab?(tab: SettingsTab): void }) {
  return (
    <PageCard title="Settings">
      <Tabs.Root value={tab} onValueChange={(e) => onTab?.(e.value as SettingsTab)} variant="enclosed" lazyMount>
        {/* Two by two on phones: four in a row do not fit 375px, and wrapping left "Security" alone on a line. */}
        <Tabs.List display={{ base: 'grid', sm: 'flex' }} gridTemplateColumns="repeat(2, minmax(0, 1fr))" bg="portal.backgroundAlt">
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

function ReadOnlyField({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Field.Root>
      <Field.Label>{label}</Field.Label>
      <Input readOnly value={value} bg="portal.background" />
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
    </Field.Root>
  );
}

/**
 * Read-only: first and last name when the profile has them apart, otherwise the full name. With no name at
 * all, the name the app greets by (from the email), said to be that; it is not saved to the profile.
 */
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
        <ReadOnlyField
          label="Full Name"
          value={greetingName(profile)}
          hint={greetingName(profile) === [first, last].filter(Boolean).join(' ') ? undefined : 'Taken from your email address until our team adds your name.'}
        />
      )}
      <ReadOnlyField label="Email" value={profile.email} />
    </SimpleGrid>
  );
}
