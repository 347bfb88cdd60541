import { Button, Field, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useRef, useState } from 'react';
import type { RequestFile } from '../../../../domain/staff.ts';
import { NewTrackingLinkBody, type StaffTrackingLink } from '../../../../domain/tracking.ts';
import { TrackingLinkItem } from '../../../components/tracking-link-item.tsx';
import { PreviewsList, VisitsList } from '../../../components/visits-list.tsx';
import { useOnline } from '../../../lib/pwa.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../../../lib/use-online-action.ts';
import { OfflineHint } from '../shared/offline-hint.tsx';
import { EmptyText, SectionCard } from '../shared/section-card.tsx';
import { sendNewTrackingLink, sendTrackingLinkState } from './request-api.ts';

/**
 * Track Master's tracking links and the visits they captured. Links are made while the request is In
 * Progress; the page's device copy shows them offline, making or disabling one needs the server.
 */
export function TrackingSection({ file, reload }: { file: RequestFile; reload(): void }) {
  const people = file.visits.filter((visit) => !visit.preview);
  const previews = file.visits.filter((visit) => visit.preview);
  return (
    <>
      <SectionCard title="Tracking links" count={file.trackingLinks.length}>
        <Stack gap="4">
          {file.trackingLinks.length === 0 ? (
            <EmptyText>No tracking link yet.</EmptyText>
          ) : (
            <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label="Tracking links">
              {file.trackingLinks.map((link) => (
                <TrackingLinkItem key={link.id} link={link}>
                  <LinkControls link={link} reload={reload} />
                </TrackingLinkItem>
              ))}
            </Stack>
          )}
          {file.request.status === 'In Progress' ? (
            <NewLinkForm requestId={file.request.id} reload={reload} />
          ) : (
            <Text fontSize="sm" color="fg.muted">
              New links can be made while the request is In Progress.
            </Text>
          )}
        </Stack>
      </SectionCard>
      <SectionCard title="Visits" count={people.length}>
        <Stack gap="4">
          {people.length === 0 ? <EmptyText>No visit recorded yet.</EmptyText> : <VisitsList visits={people} label="Visits" />}
          <PreviewsList visits={previews} />
        </Stack>
      </SectionCard>
    </>
  );
}

function LinkControls({ link, reload }: { link: StaffTrackingLink; reload(): void }) {
  const online = useOnline();
  const { running, run } = useOnlineAction();
  async function toggle() {
    const outcome = await run(() => sendTrackingLinkState(link.id, !link.disabled));
    if (!outcome) return;
    if (outcome.ok) {
      showMessage(link.disabled ? 'Tracking link enabled.' : 'Tracking link disabled.', 'success');
      reload();
    } else if (!outcome.offline) showMessage(failureText(outcome.error), 'error');
  }
  return (
    <HStack gap="3" wrap="wrap" justify="space-between">
      <Text fontSize="sm" color="fg.muted" wordBreak="break-all">
        Sends visitors to {link.destination ?? "the portal's neutral page"}
      </Text>
      <Button size="xs" variant="outline" colorPalette={link.disabled ? 'brand' : 'red'} loading={running} disabled={!online} onClick={() => void toggle()}>
        {link.disabled ? 'Enable link' : 'Disable link'}
      </Button>
    </HStack>
  );
}

function NewLinkForm({ requestId, reload }: { requestId: string; reload(): void }) {
  const online = useOnline();
  const { running, run } = useOnlineAction();
  const [label, setLabel] = useState('');
  const [destination, setDestination] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'label' | 'destination', string>>>({});
  // One key per submission: a retry after a lost answer makes one link, not two.
  const key = useRef(crypto.randomUUID());

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = NewTrackingLinkBody.safeParse({ label, destination: destination.trim() || null });
    if (!parsed.success) {
      setErrors(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
      return;
    }
    setErrors({});
    const outcome = await run(() => sendNewTrackingLink(requestId, parsed.data, key.current));
    if (!outcome) return;
    if (outcome.ok) {
      key.current = crypto.randomUUID();
      setLabel('');
      setDestination('');
      showMessage('Tracking link created.', 'success');
      reload();
    } else if (!outcome.offline) showMessage(failureText(outcome.error), 'error');
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="New tracking link">
      <Stack gap="3" borderTopWidth="1px" borderColor="portal.border" pt="3">
        <Text fontWeight="medium">New tracking link</Text>
        <HStack gap="3" align="start" wrap="wrap">
          <Field.Root required invalid={!!errors.label} flex="1" minWidth={{ base: '100%', sm: '200px' }}>
            <Field.Label>
              Label <Field.RequiredIndicator />
            </Field.Label>
            <Input value={label} maxLength={80} autoComplete="off" onChange={(e) => setLabel(e.target.value)} placeholder="Payment receipt for the scammer" />
            <Field.ErrorText>{errors.label}</Field.ErrorText>
          </Field.Root>
          <Field.Root invalid={!!errors.destination} flex="2" minWidth={{ base: '100%', sm: '260px' }}>
            <Field.Label>Send visitors to</Field.Label>
            <Input type="url" value={destination} maxLength={2000} autoComplete="off" onChange={(e) => setDestination(e.target.value)} placeholder="https://…" />
            {errors.destination ? (
              <Field.ErrorText>{errors.destination}</Field.ErrorText>
            ) : (
              <Field.HelperText>A harmless page. Empty: the portal's neutral page.</Field.HelperText>
            )}
          </Field.Root>
        </HStack>
        <HStack gap="3">
          <Button type="submit" colorPalette="brand" size="sm" loading={running} disabled={!online}>
            Create link
          </Button>
          {!online && <OfflineHint />}
        </HStack>
      </Stack>
    </form>
  );
}
