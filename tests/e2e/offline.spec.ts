// The app reads from the device offline, and every command made offline (or
// whose answer was lost, or whose token expired) reaches the server exactly once. Counts come from
// the database through the test-only routes of server/plugins/faults.ts (TEST_FAULTS=1 in e2e).
import { type BrowserContext, type Page, expect, test } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { baseUrl, createEmulatorUser, DEMO, PNG, shot, signIn } from './support/fixtures.ts';
import { apiAs, dbCounts, setFaults, waitForServiceWorker } from './support/offline.ts';

test.afterEach(async () => {
  await setFaults({ dropAfterCommitRate: 0, fail5xxRate: 0 });
});

async function goOffline(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
}

async function sendContact(page: Page, subject: string) {
  await page.goto('/contact-us');
  await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
  await page.getByRole('textbox', { name: 'Message' }).fill(`Message for ${subject}`);
  await page.getByRole('button', { name: 'Send', exact: true }).click();
}

function contactRow(page: Page, subject: string) {
  return page.getByRole('listitem').filter({ hasText: subject });
}

/** The row is on screen and its "Waiting to send" badge is gone (never vacuously: the row must exist). */
async function expectSent(page: Page, subject: string, timeout = 60_000) {
  await expect(contactRow(page, subject)).toBeVisible();
  await expect(contactRow(page, subject).getByText(texts.waitingToSend)).toBeHidden({ timeout });
}

test('reads from the device offline: dashboard, tool table, notifications, contact history, deep links', async ({ page, context, browser }) => {
  test.setTimeout(120_000);
  const stamp = `read-${Date.now()}`;
  const client = await apiAs(DEMO.client);
  const admin = await apiAs(DEMO.admin);
  await admin.post(`/notification/${client.uid}`, { notification: { message: `Offline notice ${stamp}` } });
  await client.post('/contact', { contactRequest: { subject: `History ${stamp}`, message: 'Kept on the device' } });

  await signIn(page, DEMO.client.email, DEMO.client.password);
  await waitForServiceWorker(page);
  await page.goto('/notifications');
  await expect(page.getByText(`Offline notice ${stamp}`)).toBeVisible({ timeout: 20_000 });

  await goOffline(context, page);
  await page.reload();
  await expect(page.getByText(`Offline notice ${stamp}`)).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('table', { name: 'Tools requests' }).locator('tbody tr').first()).toBeVisible();
  await shot(page, 'offline-dashboard');
  await page.goto('/tool/track-master');
  await expect(page.getByRole('table', { name: 'Track Master' }).locator('tbody tr').first()).toBeVisible();
  await page.goto('/contact-requests');
  await expect(page.getByText(`History ${stamp}`)).toBeVisible();

  // A fresh page opened straight on a deep link, still offline.
  const fresh = await context.newPage();
  await fresh.goto(`${baseUrl()}/contact-requests`);
  await expect(fresh.getByText(`History ${stamp}`)).toBeVisible({ timeout: 20_000 });
  await fresh.close();
  void browser;
});

test('a purchase with a file, a refund and a contact message made offline each arrive exactly once', async ({ page, context }) => {
  test.setTimeout(150_000);
  const stamp = `off-${Date.now()}`;
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await waitForServiceWorker(page);
  await page.goto('/tool/bank-dispute');
  const table = page.getByRole('table', { name: 'Bank Dispute' });
  await expect(table.locator('tbody tr[data-status="In Progress"]').first()).toBeVisible({ timeout: 20_000 });

  await goOffline(context, page);

  // Purchase with a file.
  await page.getByRole('button', { name: 'New Request' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Amount Lost').fill('2500');
  await form.getByLabel('Transaction Date').fill('01/10/2026');
  await form.getByLabel('Transactions Bank Used').fill(`Bank ${stamp}`);
  await form.getByLabel('Payment Method').selectOption('wire');
  await form.getByLabel('Bank Statement').setInputFiles({ name: 'statement.png', mimeType: 'image/png', buffer: PNG });
  await form.getByRole('button', { name: 'Continue' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
  await terms.getByText(/I have read and agree/i).click();
  await terms.getByRole('button', { name: 'Submit request' }).click();
  await expect(page.getByText(texts.sentWhenOnline).first()).toBeVisible();

  // Refund of an In Progress request.
  await page.goto('/tool/bank-dispute');
  const inProgress = table.locator('tbody tr[data-status="In Progress"]').first();
  await inProgress.getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Refund', exact: true }).click();
  const refund = page.getByRole('dialog', { name: 'Request Refund' });
  await refund.getByLabel('Reason').fill(`Refund ${stamp}`);
  await refund.getByText('Partial refund').click();
  await refund.getByRole('button', { name: 'Send' }).click();
  await expect(refund).toBeHidden();

  // Contact message.
  await sendContact(page, `Contact ${stamp}`);
  await expect(page.getByText(texts.sentWhenOnline).first()).toBeVisible();

  // Each shows as pending, and still does after a reload offline.
  for (const reload of [false, true]) {
    if (reload) await page.reload();
    await page.goto('/tool/bank-dispute');
    // The new request's row; the refunded row may also read "Waiting to send" in its refund mark.
    await expect(table.locator('tbody tr').filter({ hasText: texts.waitingToSend }).filter({ hasNot: page.getByTestId('refund-badge') })).toHaveCount(1);
    await page.goto('/contact-requests');
    await expect(contactRow(page, `Contact ${stamp}`).getByText(texts.waitingToSend)).toBeVisible();
    await expect(page.getByRole('button', { name: /Outbox: 3 waiting to send/ })).toBeVisible();
  }
  await shot(page, 'offline-pending');
  expect(await dbCounts(stamp)).toEqual({ contact: { total: 0, distinct: 0 }, refunds: { total: 0, distinct: 0 }, requests: { total: 0, distinct: 0 } });

  await context.setOffline(false);
  await expect(page.getByRole('button', { name: /Outbox:/ })).toBeHidden({ timeout: 30_000 });
  await expectSent(page, `Contact ${stamp}`);
  await page.goto('/tool/bank-dispute');
  await expect(table.locator('tbody tr').first()).toBeVisible();
  await expect(table.locator('tbody tr').filter({ hasText: texts.waitingToSend })).toHaveCount(0);
  expect(await dbCounts(stamp)).toEqual({ contact: { total: 1, distinct: 1 }, refunds: { total: 1, distinct: 1 }, requests: { total: 1, distinct: 1 } });
});

test('a message whose answer was lost after commit is resent and not duplicated', async ({ page }) => {
  test.setTimeout(90_000);
  const stamp = `lost-${Date.now()}`;
  const email = `${stamp}@e2e.example`;
  await createEmulatorUser(email, 'Secret#123');
  await signIn(page, email, 'Secret#123');
  await page.goto('/contact-us');
  await setFaults({ dropAfterCommitRate: 1, pathPrefix: '/api/contact' });
  await sendContact(page, `Lost ${stamp}`);
  // The server committed it, but the page never heard back: the sender keeps retrying (answers are
  // still being cut), yet the row the server made (pulled after the poke) replaces the pending copy,
  // so the message shows once and the command is done.
  await expect.poll(() => dbCounts(stamp).then((c) => c.contact.total), { timeout: 15_000 }).toBe(1);
  await page.goto('/contact-requests');
  await expectSent(page, `Lost ${stamp}`);
  await expect(contactRow(page, `Lost ${stamp}`)).toHaveCount(1);
  await expect(page.getByRole('button', { name: /Outbox:/ })).toBeHidden();
  await setFaults({ dropAfterCommitRate: 0 });
  // A duplicate could only come from a resend still on its way; nothing signals that none is, so the count waits a moment.
  await page.waitForTimeout(2_000);
  expect((await dbCounts(stamp)).contact).toEqual({ total: 1, distinct: 1 });
});

test('a command queued with a token that has expired by the time it is sent still arrives', async ({ page, context }) => {
  test.setTimeout(90_000);
  const stamp = `exp-${Date.now()}`;
  const email = `${stamp}@e2e.example`;
  await createEmulatorUser(email, 'Secret#123');
  await signIn(page, email, 'Secret#123');
  await waitForServiceWorker(page);
  await goOffline(context, page);
  await sendContact(page, `Expired ${stamp}`);
  await expect(page.getByText(texts.sentWhenOnline).first()).toBeVisible();

  // Every token issued until now is refused from here on, as if it had expired while queued.
  const res = await fetch(`${baseUrl()}/api/__test/expire-tokens`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
  expect(res.status).toBe(200);
  await page.waitForTimeout(1_100);

  await context.setOffline(false);
  await page.goto('/contact-requests');
  await expectSent(page, `Expired ${stamp}`);
  expect((await dbCounts(stamp)).contact).toEqual({ total: 1, distinct: 1 });
});

test('a final file downloaded online opens offline from the device', async ({ page, context }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await waitForServiceWorker(page);
  const openDownloadItem = async () => {
    await page.goto('/tool/track-master');
    const done = page.getByRole('table', { name: 'Track Master' }).locator('tbody tr[data-status="Done"]').first();
    await done.getByRole('button', { name: 'Actions' }).click();
    const item = page.getByRole('menuitem', { name: 'Download File' });
    await expect(item).toHaveAttribute('href', /\/api\/download\//, { timeout: 15_000 });
    return item;
  };
  const online = page.waitForEvent('download');
  await (await openDownloadItem()).click();
  expect(await (await online).failure()).toBeNull();
  await expect.poll(() => page.evaluate(async () => (await (await caches.open('final-files')).keys()).length)).toBeGreaterThan(0);

  await goOffline(context, page);
  await page.reload();
  const offline = page.waitForEvent('download');
  await (await openDownloadItem()).click();
  const file = await offline;
  expect(await file.failure()).toBeNull();
  expect(file.suggestedFilename()).toBe('Track Master final report.pdf');
});

test('a signed-in start draws from the device while Firebase cannot get an answer about the session', async ({ page, context }) => {
  await signIn(page, DEMO.client.email, DEMO.client.password);
  const firstRow = page.getByRole('table', { name: 'Tools requests' }).locator('tbody tr').first();
  await expect(firstRow).toBeVisible({ timeout: 20_000 });
  // A restored session is checked with Google (here the emulator) before Firebase answers; on a poor connection
  // that call can hang until the SDK gives up. Held here, never answered.
  let held = 0;
  await context.route('**/identitytoolkit.googleapis.com/**', () => {
    held++;
  });
  await page.reload();
  await expect(firstRow).toBeVisible({ timeout: 10_000 });
  expect(held, 'Firebase asked about the session during the start').toBeGreaterThan(0);
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

// docs/decisions/018: the worker's static routes send the API to the network without
// waking it (every write of the page was dispatched to it before); the final-file downloads still go through it.
test('API requests bypass the service worker, downloads still go through it', async ({ page, context }) => {
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await waitForServiceWorker(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  type Received = { response: { url: string; fromServiceWorker?: boolean; serviceWorkerRouterInfo?: { matchedSourceType?: string } } };
  const seen = new Map<string, Received['response']>();
  cdp.on('Network.responseReceived', (e: Received) => seen.set(new URL(e.response.url).pathname, e.response));
  await page.evaluate(async () => {
    await fetch('/api/health');
    await fetch('/api/download/not-a-link');
  });
  await expect.poll(() => seen.size).toBeGreaterThanOrEqual(2);
  expect(seen.get('/api/health')?.serviceWorkerRouterInfo?.matchedSourceType).toBe('network');
  expect(seen.get('/api/health')?.fromServiceWorker).toBe(false);
  expect(seen.get('/api/download/not-a-link')?.fromServiceWorker).toBe(true);
});
