import { Box, Heading, Stack, Switch, Text } from '@chakra-ui/react';
import { useId, useState } from 'react';
import type { NotificationPreferences, PreferenceField } from '../../../../domain/notification-preferences.ts';
import { NEUTRAL_PUSH_BODY } from '../../../../domain/push.ts';
import { hasRole } from '../../../../domain/roles.ts';
import { changePreferences, defaultPreferences } from '../../../lib/notification-preferences.ts';
import { type PushPermission, answerPushOffer, disablePush, turnOnPushHere } from '../../../lib/push.ts';
import { usePushDevice } from '../../../lib/use-push-device.ts';
import { useProfile, useReplica } from '../../../lib/replica.ts';
import { useLiveQuery } from '../../../lib/use-live-query.ts';

/** Why the device switch cannot be turned on here, said next to it; null when it can. */
export function pushBlockedText(permission: PushPermission): string | null {
  if (permission === 'denied') return 'Notifications are blocked for this site in your browser settings.';
  if (permission === 'unsupported') return 'This browser cannot show notifications from this site. On iPhone or iPad, add the app to your Home Screen first.';
  return null;
}

export const LOCK_SCREEN_TEXT = `When off, your lock screen shows only “${NEUTRAL_PUSH_BODY}”, never what it is about.`;

/**
 * Settings → Notifications: the spec's two switches (what reaches the user at all), then how (email; push on this
 * device), the lock screen's privacy, and for staff the staff alerts. Every switch reads the replica and changes
 * through the outbox (lib/notification-preferences.ts): at once, offline too. Push on this device is the device's
 * own subscription (lib/push.ts): turning it on is the gesture that may show the browser's prompt.
 */
export function NotificationsTab() {
  const db = useReplica();
  const profile = useProfile();
  const row = useLiveQuery(() => db.notificationPreferences.get(db.uid), [db]);
  const prefs: NotificationPreferences = row ?? defaultPreferences(db.uid);
  const turn = (field: PreferenceField) => (on: boolean) => void changePreferences(db, { [field]: on }).catch((err: unknown) => console.error('switch not saved', err));
  const isStaff = profile ? hasRole(profile, 'staff') || hasRole(profile, 'admin') : false;

  return (
    <Stack gap="6" maxWidth="640px" data-testid="notification-settings">
      <Section title="Updates">
        <SettingSwitch label="General Updates" description="News and notices for everyone who uses the portal." checked={prefs.generalUpdates} onChange={turn('generalUpdates')} />
        <SettingSwitch
          label="Personal Updates"
          description="News about your own case: replies, prices, payments, reports and refunds."
          checked={prefs.personalUpdates}
          onChange={turn('personalUpdates')}
        />
      </Section>
      <Section title="How we reach you">
        <SettingSwitch label="Email" description="An email for these updates. Payment receipts are always sent." checked={prefs.email} onChange={turn('email')} />
        <DeviceSwitch />
        <SettingSwitch label="Show details on the lock screen" description={LOCK_SCREEN_TEXT} checked={prefs.lockScreenDetails} onChange={turn('lockScreenDetails')} />
      </Section>
      {isStaff && (
        <Section title="Staff alerts">
          <SettingSwitch label="New leads" description="Someone new is waiting for approval." checked={prefs.staffLeads} onChange={turn('staffLeads')} />
          <SettingSwitch label="New requests to price" description="A client ordered a service." checked={prefs.staffRequests} onChange={turn('staffRequests')} />
          <SettingSwitch label="Client messages" description="A client wrote or replied and waits for an answer." checked={prefs.staffMessages} onChange={turn('staffMessages')} />
          <SettingSwitch label="Refund requests" description="A client asked for a refund." checked={prefs.staffRefunds} onChange={turn('staffRefunds')} />
        </Section>
      )}
    </Stack>
  );
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Stack as="section" gap="4">
      <Heading as="h2" fontSize="md" fontWeight="semibold">
        {title}
      </Heading>
      {children}
    </Stack>
  );
}

/** A switch with its label, and below the label what it does (read by screen readers as the switch's description). */
function SettingSwitch({
  label,
  description,
  note,
  checked,
  disabled = false,
  onChange,
}: {
  label: string;
  description: string;
  /** A state of the switch worth saying (blocked, waiting for the connection), shown under the description. */
  note?: string | null;
  checked: boolean;
  disabled?: boolean;
  onChange(on: boolean): void;
}) {
  const descriptionId = useId();
  // The whole row is the switch's label: a tap on the words turns it too (the phone's way).
  return (
    <Switch.Root
      checked={checked}
      disabled={disabled}
      onCheckedChange={(e) => onChange(e.checked)}
      colorPalette="brand"
      display="flex"
      justifyContent="space-between"
      alignItems="flex-start"
      gap="4"
      width="100%"
    >
      <Box minWidth="0">
        <Switch.Label fontWeight="medium" fontSize="md">
          {label}
        </Switch.Label>
        <Text fontSize="sm" color="fg.muted" id={descriptionId}>
          {description}
          {note && (
            <Text as="span" display="block" mt="1" color="portal.text" fontWeight="medium" data-testid="switch-note">
              {note}
            </Text>
          )}
        </Text>
      </Box>
      <Switch.HiddenInput aria-describedby={descriptionId} />
      {/* Off, the track is drawn dark enough to see on white (Chakra's default is under the 3:1 a control needs). */}
      <Switch.Control flexShrink={0} mt="0.5" bg="gray.500" _checked={{ bg: 'colorPalette.solid' }}>
        <Switch.Thumb />
      </Switch.Control>
    </Switch.Root>
  );
}

/**
 * "Notify me on this device": on when this device asked for push and the browser allows it. Turning it on asks the
 * browser (its prompt, if any, appears now) and subscribes; offline, the choice is kept and the subscription is made
 * when the connection returns. Where the browser cannot or will not, the switch says why instead of doing nothing.
 */
function DeviceSwitch() {
  const db = useReplica();
  // Permission is unknown until the browser answers: the switch waits disabled, without a note.
  const { env, permission, wanted = false, recheck } = usePushDevice();
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const blocked = permission === null ? null : pushBlockedText(permission);

  const change = async (on: boolean) => {
    setBusy(true);
    setNote(null);
    try {
      if (on) {
        const result = await turnOnPushHere(env, db);
        if (result !== 'failed') answerPushOffer();
        if (result === 'offline') setNote('This device will be subscribed when it is back online.');
        if (result === 'failed') setNote('Notifications could not be turned on here. Please try again.');
      } else {
        // Off whatever the server answers: the browser drops the subscription, and the server drops it at its next
        // push (the push service answers 410).
        await disablePush(env, db).catch((err: unknown) => console.warn('push: the server did not hear this device is off', err));
      }
    } finally {
      await recheck();
      setBusy(false);
    }
  };

  return (
    <SettingSwitch
      label="Notify me on this device"
      description="A notification on this phone or computer when your case moves. Each device is turned on by itself."
      note={blocked ?? note}
      checked={wanted && permission === 'granted'}
      disabled={busy || permission === null || blocked !== null}
      onChange={(on) => void change(on)}
    />
  );
}
