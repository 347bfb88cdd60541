// The staff workspace offline. A staff member opens two client pages and the queue,
// loses the connection, reloads, and still reads all three as they were; a reply and an internal note
// written offline wait on the device and, back online, each reaches the server exactly once.
import { randomUUID } from 'node:crypto';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { baseUrl, bearer, createEmulatorUser, dataOf, DEMO, DESKTOP, idToken, PHONE, shot, shotBoth, signIn } from './support/fixtures.ts';
import { waitForServiceWorker } from './support/offline.ts';

const WAITING = texts.waitingToSend;

interface ClientFileAnswer {
  client: { version: number };
  threads: { id: string; subject: string; replies: { author: string; message: string }[] }[];
  notes: { body: string }[];
}

/** A new approved client, as the sign-up page and a staff approval make one. */
async function newClient(request: APIRequestContext, staffToken: string, email: string) {
  const { idToken: token, uid } = await createEmulatorUser(email, 'Victim#2026');
  await dataOf(await request.get('/api/user', { headers: bearer(token) }));
  const file = await dataOf<ClientFileAnswer>(await request.get(`/api/staff/clients/${uid}`, { headers: bearer(staffToken) }));
  await dataOf(await request.post(`/api/staff/clients/${uid}/approval`, { headers: bearer(staffToken), data: { version: file.client.version } }));
  return { uid, token };
}

/** Client B's Track Master request, priced, partly paid ($200 of $450), in progress, with a partial refund asked. */
async function refundAsked(request: APIRequestContext, staffToken: string, clientToken: string, reason: string): Promise<string> {
  const order = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: reason };
  const created = await dataOf<{ id: string }>(await request.post('/api/trackMasterProcess', { headers: bearer(clientToken), data: { trackMasterProcess: order } }));
  const staff = (path: string, data: object, extra: Record<string, string> = {}) =>
    request.post(`/api/staff/requests/${created.id}/${path}`, { headers: { ...bearer(staffToken), ...extra }, data });
  const priced = await dataOf<{ version: number }>(await staff('transition', { to: 'Waiting for actions', version: 1, totalAmount: 450 }));
  const paid = await dataOf<{ request: { version: number } }>(
    await staff('payments', { version: priced.version, amount: 200, method: 'WIRE', paidAt: new Date().toLocaleDateString('sv-SE'), reference: 'TX-1' }, { 'idempotency-key': randomUUID() }),
  );
  await dataOf(await staff('transition', { to: 'In Progress', version: paid.request.version }));
  const refund = { tool: 'TRACK_MASTER', processId: created.id, refundRequestType: 'PARTIAL', reason };
  await dataOf(await request.post('/api/refund', { headers: bearer(clientToken), data: { refundRequest: refund } }));
  return created.id;
}

/** What the test compares online and offline: texts that only a complete page shows (not the offline hints beside the actions). */
async function clientPageTexts(page: Page) {
  const heading = await page.getByRole('heading', { level: 1 }).innerText();
  const requests = await page.getByRole('region', { name: 'Requests', exact: true }).innerText();
  const conversations = page.getByRole('region', { name: 'Conversations' });
  const subjects = await conversations.getByRole('heading', { level: 3 }).allInnerTexts();
  const messages = await conversations.getByRole('list').allInnerTexts();
  const profile = await page.getByRole('region', { name: 'Profile' }).innerText();
  return { heading, requests, subjects, messages, profile };
}

test('staff read the queue and the cases they opened offline; a reply and a note written offline arrive once', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const staffToken = await idToken(DEMO.staff.email, DEMO.staff.password);
  const emailA = `offline-a-${stamp}@e2e.test`;
  const emailB = `offline-b-${stamp}@e2e.test`;
  const a = await newClient(request, staffToken, emailA);
  const b = await newClient(request, staffToken, emailB);
  const subject = `Where is my report ${stamp}`;
  await dataOf(await request.post('/api/contact', { headers: bearer(a.token), data: { contactRequest: { subject, message: 'It has been a week. Any news?' } } }));
  const requestId = await refundAsked(request, staffToken, b.token, `Changed my mind ${stamp}`);

  const context = await browser.newContext({ baseURL: baseUrl(), viewport: DESKTOP });
  const page = await context.newPage();
  await signIn(page, DEMO.staff.email, DEMO.staff.password);
  await waitForServiceWorker(page);

  // Online: the queue's "Awaiting our reply" tab, the two client pages.
  const queueUrl = `/staff?tab=threads&q=${encodeURIComponent(emailA)}`;
  await page.goto(queueUrl);
  const threadRow = page.getByTestId('queue-row').filter({ hasText: subject });
  await expect(threadRow).toHaveCount(1);
  const queueOnline = await threadRow.innerText();
  await threadRow.getByRole('link', { name: 'Open' }).click();
  await expect(page).toHaveURL(new RegExp(`/staff/clients/${a.uid}#thread-`));
  const thread = page.getByRole('article', { name: subject });
  await expect(thread.getByText('It has been a week. Any news?')).toBeVisible();
  const onlineA = await clientPageTexts(page);
  await page.goto(`/staff/requests/${requestId}`);
  await expect(page.getByTestId('refund').getByText(`Changed my mind ${stamp}`)).toBeVisible();
  const onlineRequest = await page.getByRole('region', { name: 'Refund requests' }).innerText();
  await page.goto(`/staff/clients/${b.uid}`);
  await expect(page.getByRole('region', { name: 'Requests', exact: true }).getByRole('link', { name: 'Track Master' })).toBeVisible();
  const onlineB = await clientPageTexts(page);

  // Offline, after a reload: the same queue row and the same pages, from the device.
  await context.setOffline(true);
  await page.reload();
  // The toolbar's badge says exactly "Offline"; the page's "Offline copy from …" line is a status too.
  await expect(page.getByRole('status').filter({ hasText: /^Offline$/ })).toBeVisible();
  await expect(page.getByText(/^Offline copy from \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeVisible();
  expect(await clientPageTexts(page)).toEqual(onlineB);
  await page.goto(`/staff/requests/${requestId}`);
  const refund = page.getByTestId('refund');
  await expect(refund.getByText(`Changed my mind ${stamp}`)).toBeVisible();
  const offlineRequest = await page.getByRole('region', { name: 'Refund requests' }).innerText();
  expect(offlineRequest.replace(/You are offline\n*/g, '')).toBe(onlineRequest);
  await expect(refund.getByRole('button', { name: 'Approve refund' })).toBeDisabled();
  await expect(refund.getByRole('button', { name: 'Decline refund' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Record payment' })).toBeDisabled();
  await shotBoth(page, 'staff-offline-request', { noSidewaysScroll: true });

  await page.goto(queueUrl);
  await expect(threadRow).toHaveCount(1);
  expect(await threadRow.innerText()).toBe(queueOnline);
  await expect(page.getByTestId('count-threads')).not.toHaveText('…');
  await shotBoth(page, 'staff-offline-queue', { noSidewaysScroll: true });

  await threadRow.getByRole('link', { name: 'Open' }).click();
  await expect(thread.getByText('It has been a week. Any news?')).toBeVisible();
  expect(await clientPageTexts(page)).toEqual(onlineA);
  // What needs the server is disabled, and says why.
  await expect(thread.getByRole('button', { name: 'Close conversation' })).toBeDisabled();
  await expect(thread.getByText('You are offline')).toBeVisible();

  // A reply and a note, written offline: they wait on the device.
  const replyText = `We are on it (${stamp}).`;
  const noteText = `Called the bank on ${stamp}.`;
  await thread.getByRole('textbox', { name: 'Your reply' }).fill(replyText);
  await thread.getByRole('button', { name: 'Send reply' }).click();
  const reply = thread.getByTestId('message').filter({ hasText: replyText });
  await expect(reply.getByText(WAITING)).toBeVisible();
  const notes = page.getByRole('region', { name: 'Internal notes — only staff see these' });
  await notes.getByRole('textbox', { name: 'New internal note' }).fill(noteText);
  await notes.getByRole('button', { name: 'Add note' }).click();
  const note = notes.getByTestId('note').filter({ hasText: noteText });
  await expect(note.getByText(WAITING)).toBeVisible();
  await shotBoth(page, 'staff-offline-client', { noSidewaysScroll: true });
  await thread.scrollIntoViewIfNeeded();
  await shot(page, 'staff-offline-thread-1280');

  // Back online: both are sent, and the page shows the server's rows.
  await context.setOffline(false);
  await expect(reply.getByText(WAITING)).toHaveCount(0, { timeout: 30_000 });
  await expect(note.getByText(WAITING)).toHaveCount(0, { timeout: 30_000 });
  await expect(reply).toHaveCount(1);
  await expect(note).toHaveCount(1);
  await expect(page.getByText(/^Offline copy from/)).toHaveCount(0, { timeout: 20_000 });
  await page.setViewportSize(PHONE);
  await thread.scrollIntoViewIfNeeded();
  await shot(page, 'staff-offline-sent-375');

  // Online again, the refund is decided on its request page (versioned, like every staff write), opened from the queue.
  await page.setViewportSize(DESKTOP);
  await page.goto(`/staff?tab=refunds&q=${encodeURIComponent(emailB)}`);
  const refundRow = page.getByTestId('queue-row').filter({ hasText: `Changed my mind ${stamp}` });
  await expect(refundRow).toHaveCount(1);
  await expect(refundRow).toContainText('$200.00');
  await shotBoth(page, 'staff-offline-queue-refunds', { noSidewaysScroll: true });
  await refundRow.getByRole('link', { name: 'Open' }).click();
  await expect(page).toHaveURL(new RegExp(`/staff/requests/${requestId}$`));
  const decision = page.getByTestId('refund-decision');
  await decision.getByRole('textbox', { name: /Refund amount/ }).fill('500');
  await decision.getByRole('button', { name: 'Approve refund' }).click();
  await expect(decision.getByText('Amount cannot be more than the $200.00 paid')).toBeVisible();
  await decision.getByRole('textbox', { name: /Refund amount/ }).fill('150');
  await decision.getByRole('button', { name: 'Approve refund' }).click();
  await page.getByRole('dialog', { name: 'Approve this refund?' }).getByRole('button', { name: 'Yes, approve refund' }).click();
  await expect(page.getByText('Refund approved.')).toBeVisible();
  await expect(page.getByTestId('refund')).toHaveAttribute('data-status', 'approved');
  await expect(page.getByTestId('refund').getByText('Approved: $150.00 returned')).toBeVisible();

  // Exactly one reply and one note in the database, as the server's own page reads them.
  const file = await dataOf<ClientFileAnswer>(await request.get(`/api/staff/clients/${a.uid}`, { headers: bearer(staffToken) }));
  const saved = file.threads.find((t) => t.subject === subject);
  expect(saved?.replies.filter((r) => r.message === replyText && r.author === 'staff')).toHaveLength(1);
  expect(file.notes.filter((n) => n.body === noteText)).toHaveLength(1);
  await context.close();
});
