import { type FormEvent, useState } from 'react';
import { Field, Input, Stack, Textarea } from '@chakra-ui/react';
import { NotificationItem } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { apiSend } from '../../../lib/api.ts';
import { AdminPanel, CreateButton, Toggle, useAdminSubmit } from './admin-shared.tsx';

type Audience = 'General' | 'Specific';

/** The server's bound on a notification (NotificationBody). */
export const contentMax = 1000;

/** Admin: a notification for everyone (General) or for one user (Specific). Online-only, sent directly. */
export function CreateNotificationPage() {
  return (
    <AdminPanel title="Create Notification">
      <CreateNotificationForm />
    </AdminPanel>
  );
}

export function CreateNotificationForm() {
  const [audience, setAudience] = useState<Audience>('General');
  const [userId, setUserId] = useState('');
  const [content, setContent] = useState('');
  const [userIdMissing, setUserIdMissing] = useState(false);
  const { sending, submit } = useAdminSubmit();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const message = content.trim();
    const id = userId.trim();
    // Spec: empty content sends nothing.
    if (!message || sending) return;
    if (audience === 'Specific' && !id) {
      setUserIdMissing(true);
      return;
    }
    const path = audience === 'General' ? '/notification' : `/notification/${encodeURIComponent(id)}`;
    await submit(
      () => apiSend(path, 'POST', { notification: { message } }, NotificationItem),
      audience === 'General' ? texts.publicNotificationCreated : texts.userNotificationCreated(id),
      () => setContent(''),
    );
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="4">
        <Toggle value={audience} options={['General', 'Specific']} label="Notification type" onChange={setAudience} />
        {audience === 'Specific' && (
          <Field.Root required invalid={userIdMissing}>
            <Field.Label>
              User ID <Field.RequiredIndicator />
            </Field.Label>
            <Input
              value={userId}
              maxLength={128}
              autoComplete="off"
              onChange={(e) => {
                setUserId(e.target.value);
                setUserIdMissing(false);
              }}
            />
            <Field.ErrorText>User ID is required</Field.ErrorText>
          </Field.Root>
        )}
        <Field.Root>
          <Field.Label>Content</Field.Label>
          <Textarea value={content} maxLength={contentMax} rows={5} onChange={(e) => setContent(e.target.value)} />
        </Field.Root>
        <CreateButton sending={sending} />
      </Stack>
    </form>
  );
}
