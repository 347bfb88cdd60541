// Email outside the app: a staff reply reaches the client by one mail after the wait (E2E_EMAIL_DELAY_SECONDS),
// through the stack's real SMTP inbox; when the client reads it in the app first, no mail goes.
import { type APIRequestContext, expect, test } from '@playwright/test';
import { DEMO, bearer, clientWithPaidRequest, dataOf, idToken, openContext, signIn } from './support/fixtures.ts';
import { mailTo } from './support/inbox.ts';

const PASSWORD = 'Victim#2026';
const REPLIED = 'Recovery: Support replied to your message';

interface DeliveryRow {
  eventKind: string;
  channel: string;
  state: string;
  skipReason: string | null;
}
const deliveriesOf = async (request: APIRequestContext, email: string) => dataOf<DeliveryRow[]>(await request.get(`/api/__test/deliveries?email=${encodeURIComponent(email)}`));

test('a staff reply is emailed once after the wait, and not when the client read it in the app first', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const email = `mail-${Date.now()}@e2e.test`;
  const { uid } = await clientWithPaidRequest(request, email, PASSWORD);
  const token = await idToken(email, PASSWORD);
  const thread = await dataOf<{ id: string }>(
    await request.post('/api/contact', { headers: bearer(token), data: { contactRequest: { subject: 'Where is my money?', message: 'I paid and want to know more.' } } }),
  );
  // The mails of the setup (the price, the payment, work started) go first, so the reply's mail stands alone.
  await expect.poll(async () => (await deliveriesOf(request, email)).filter((d) => d.state === 'queued' || d.state === 'sending').length, { timeout: 30_000 }).toBe(0);

  const staff = await openContext(browser);
  await signIn(staff, DEMO.staff.email, DEMO.staff.password);
  await staff.goto(`/staff/clients/${uid}`);
  const staffThread = staff.getByTestId('thread').filter({ hasText: 'Where is my money?' });
  const reply = async (text: string) => {
    await staffThread.getByLabel('Your reply').fill(text);
    await staffThread.getByRole('button', { name: 'Send reply' }).click();
    await expect(staffThread.getByTestId('message').filter({ hasText: text })).toBeVisible();
  };

  // 1. The client is away: one mail, after the wait, naming the screen and never the message.
  await reply('We have started tracing the payment.');
  await expect.poll(async () => (await mailTo(email)).filter((m) => m.subject === REPLIED).length, { timeout: 30_000 }).toBe(1);
  const [mail] = (await mailTo(email)).filter((m) => m.subject === REPLIED);
  expect(mail.text).toContain(`/contact-requests?thread=${thread.id}`);
  expect(mail.text).not.toContain('tracing');
  expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
  expect(mail.headers['message-id']).toMatch(/^<[0-9a-f-]{36}@/);

  // 2. The client has the app open and reads the notification before the wait ends: no second mail.
  const client = await openContext(browser);
  await signIn(client, email, PASSWORD);
  await reply('We found the receiving bank.');
  const bell = client.getByRole('button', { name: 'Notifications', exact: true });
  await expect(client.getByTestId('notifications-badge')).toBeVisible({ timeout: 15_000 });
  await bell.click();
  await expect(client.getByTestId('notifications-popup').getByText('Support replied to your message "Where is my money?".').first()).toBeVisible();
  await expect
    .poll(async () => (await deliveriesOf(request, email)).filter((d) => d.eventKind === 'reply' && d.channel === 'email').map((d) => d.skipReason ?? d.state), { timeout: 30_000 })
    .toEqual(['sent', 'read in the app']);
  expect((await mailTo(email)).filter((m) => m.subject === REPLIED)).toHaveLength(1);
});
