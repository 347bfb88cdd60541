// Notifications, contact support, general files and the admin screens, end to end.
// Every test that changes data uses fresh emulator users, so it does not depend on the others.
import { type Browser, type BrowserContext, type Page, expect, test } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { DEMO, createEmulatorUser, idToken, readOobCodes, shot, signIn } from './support/fixtures.ts';

const PASSWORD = 'Secret#2026';
let counter = 0;
const freshEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@e2e.test`;

/** An ID token for setting up data through the API (the fixture's: staff and admin tokens come with the second factor verified). */
const tokenFor = idToken;

async function api(page: Page, token: string, method: 'GET' | 'POST', path: string, data?: unknown) {
  const res = await page.request.fetch(`/api${path}`, { method, headers: { authorization: `Bearer ${token}` }, data });
  expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBeTruthy();
  return (await res.json()) as { data: unknown };
}

/** A new browser context signed in as `email` (its own IndexedDB, so its own replica). */
async function signedInPage(browser: Browser, email: string, password: string, viewport = { width: 1280, height: 800 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  await signIn(page, email, password);
  return { context, page };
}

/** A fresh emulator user, signed in once so the server has its profile row. */
async function freshUser(browser: Browser, tag: string) {
  const email = freshEmail(tag);
  const { uid } = await createEmulatorUser(email, PASSWORD);
  const { context, page } = await signedInPage(browser, email, PASSWORD);
  return { email, uid, context, page };
}

const bell = (page: Page) => page.getByRole('button', { name: 'Notifications', exact: true });
const popup = (page: Page) => page.getByTestId('notifications-popup');

async function openPopup(page: Page) {
  if (!(await popup(page).isVisible())) await bell(page).click();
  await expect(popup(page)).toBeVisible();
}

async function closePopup(page: Page) {
  await page.keyboard.press('Escape');
  await expect(popup(page)).toBeHidden();
}

/** The admin pages' ADMIN label and form, signed in as the demo admin. */
async function adminPage(browser: Browser, path: string, viewport?: { width: number; height: number }) {
  const admin = await signedInPage(browser, DEMO.admin.email, DEMO.admin.password, viewport);
  await admin.page.goto(path);
  await expect(admin.page.getByText('ADMIN', { exact: true })).toBeVisible();
  return admin;
}

const messageBar = (page: Page, text: string) => page.getByText(text, { exact: true }).first();

test('the popup with 0, 3 and 7 notifications; See all only past 5', async ({ browser }) => {
  const user = await freshUser(browser, 'counts');
  const adminToken = await tokenFor(DEMO.admin.email, DEMO.admin.password);
  const userToken = await tokenFor(user.email, PASSWORD);
  // General notifications reach everyone: this test runs first on a fresh e2e database (file order,
  // and no earlier spec file creates a general one), so a fresh user starts with none.
  const before = (await api(user.page, userToken, 'GET', '/notification')).data as unknown[];
  expect(before, 'no general notification may exist before this test').toHaveLength(0);

  const { page } = user;
  await expect(bell(page)).toBeVisible();
  await openPopup(page);
  await expect(popup(page).getByText(texts.noNotifications)).toBeVisible();
  await expect(page.getByTestId('notifications-badge')).toHaveCount(0);
  await shot(page, 'notifications-popup-empty-1280');
  await closePopup(page);

  const createSpecific = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await api(page, adminToken, 'POST', `/notification/${user.uid}`, { notification: { message: `For you #${i + 1} ${Date.now()}` } });
    }
  };

  // Three, no reload: the poke brings them in. No See all at 3.
  await createSpecific(3);
  await expect(page.getByTestId('notifications-badge')).toHaveText('3');
  await openPopup(page);
  await expect(popup(page).getByTestId('notifications-total')).toHaveText('3');
  await expect(popup(page).getByTestId('notification-item')).toHaveCount(3);
  await expect(popup(page).getByText(/^\d{2}\/\d{2}\/\d{4}$/).first()).toBeVisible();
  await expect(popup(page).getByRole('button', { name: 'See all notifications' })).toHaveCount(0);
  await shot(page, 'notifications-popup-3-1280');
  await closePopup(page);

  // Seven: the first four shown, and See all.
  await createSpecific(4);
  const atSeven = 7;
  // The badge counts unread only: the first three were read when the popup opened (notifications-read.spec.ts).
  await expect(page.getByTestId('notifications-badge')).toHaveText('4');
  await openPopup(page);
  await expect(popup(page).getByTestId('notifications-total')).toHaveText(String(atSeven));
  await expect(popup(page).getByTestId('notification-item')).toHaveCount(4);
  // Polled: the popup scales in, so its box is smaller for the first few frames.
  await expect.poll(async () => Math.round((await popup(page).boundingBox())?.width ?? 0)).toBe(360);
  await shot(page, 'notifications-popup-7-1280');
  await popup(page).getByRole('button', { name: 'See all notifications' }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByTestId('notification-row')).toHaveCount(atSeven);
  await shot(page, 'notifications-page-1280');

  await page.setViewportSize({ width: 375, height: 800 });
  await openPopup(page);
  await expect.poll(async () => Math.round((await popup(page).boundingBox())?.width ?? 0)).toBeGreaterThan(340);
  const mobileBox = await popup(page).boundingBox();
  expect(mobileBox!.x).toBeGreaterThanOrEqual(0);
  expect(mobileBox!.x + mobileBox!.width).toBeLessThanOrEqual(375);
  await shot(page, 'notifications-popup-7-375');
  await user.context.close();
});

test('a general notification reaches a signed-in client live; a specific one only its user', async ({ browser }) => {
  const client = await freshUser(browser, 'live-client');
  const other = await freshUser(browser, 'live-other');
  const admin = await adminPage(browser, '/create-notifications');
  await shot(admin.page, 'admin-create-notification-1280');

  const general = `General news ${Date.now()}`;
  await admin.page.getByLabel('Content').fill(general);
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(messageBar(admin.page, texts.publicNotificationCreated)).toBeVisible();
  await expect(admin.page.getByLabel('Content')).toHaveValue('');

  // No reload in the client's tab: the SSE poke makes the sync feed fetch it.
  await openPopup(client.page);
  await expect(popup(client.page).getByText(general)).toBeVisible({ timeout: 15_000 });
  await closePopup(client.page);

  await admin.page.getByText('Specific', { exact: true }).click();
  await expect(admin.page.getByLabel(/^User ID/)).toBeVisible();
  const specific = `Only for you ${Date.now()}`;
  await admin.page.getByLabel('Content').fill(specific);
  // The User ID is required: nothing is sent without it.
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.page.getByText('User ID is required')).toBeVisible();
  await admin.page.getByLabel(/^User ID/).fill(client.uid);
  await shot(admin.page, 'admin-create-notification-specific-1280');
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(messageBar(admin.page, texts.userNotificationCreated(client.uid))).toBeVisible();

  await openPopup(client.page);
  await expect(popup(client.page).getByText(specific)).toBeVisible({ timeout: 15_000 });

  // The third user got the general one live but never the specific one, even after a fresh load.
  await openPopup(other.page);
  await expect(popup(other.page).getByText(general)).toBeVisible({ timeout: 15_000 });
  await other.page.goto('/notifications');
  await expect(other.page.getByTestId('notification-row').filter({ hasText: general })).toBeVisible();
  await expect(other.page.getByText(specific)).toHaveCount(0);

  // An unknown user id is refused with the server's message.
  await admin.page.getByLabel(/^User ID/).fill('no-such-user');
  await admin.page.getByLabel('Content').fill('Nobody');
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(messageBar(admin.page, 'User no-such-user not found')).toBeVisible();

  // Empty content sends nothing and says nothing.
  await admin.page.getByLabel('Content').fill('   ');
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(admin.page.getByText(texts.userNotificationCreated('no-such-user'))).toHaveCount(0);

  await admin.page.setViewportSize({ width: 375, height: 800 });
  await shot(admin.page, 'admin-create-notification-375');
  await Promise.all([client.context.close(), other.context.close(), admin.context.close()]);
});

test('the client sends a contact message and sees it in Contact Requests', async ({ browser }) => {
  const { page, context } = await freshUser(browser, 'contact');
  await page.goto('/contact-requests');
  await expect(page.getByText(texts.nothingFound)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Contact Support' }).last()).toHaveAttribute('href', '/contact-us');
  await shot(page, 'contact-requests-empty-1280');

  await page.goto('/contact-us');
  await expect(page.getByText(texts.contactIntro)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go Back to Dashboard' })).toBeVisible();
  await shot(page, 'contact-us-1280');
  const subject = `Where is my refund ${Date.now()}`;
  await page.getByLabel(/^Subject/).fill(subject);
  await page.getByLabel(/^Message/).fill('Please call me back.\nThanks.');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(messageBar(page, texts.messageSent)).toBeVisible();
  await expect(page.getByLabel(/^Subject/)).toHaveValue('');
  await expect(page.getByLabel(/^Message/)).toHaveValue('');

  await page.getByRole('link', { name: 'Contact requests' }).click();
  await expect(page).toHaveURL(/\/contact-requests$/);
  const row = page.getByTestId('contact-request').filter({ hasText: subject });
  await expect(row).toBeVisible();
  await expect(row.getByText(/^\d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  await expect(row.getByText('Please call me back.')).toBeVisible();
  // Once the outbox has sent it, the "Waiting to send" badge goes away.
  await expect(row.getByText(texts.waitingToSend)).toHaveCount(0, { timeout: 15_000 });
  const panel = await page.getByRole('heading', { name: 'Contact Requests' }).locator('xpath=ancestor::*[contains(@class,"card__root")][1]').boundingBox();
  if (panel) expect(panel.width).toBeLessThanOrEqual(550);
  await shot(page, 'contact-requests-1280');

  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, 'contact-requests-375');
  await page.goto('/contact-us');
  await expect(page.getByText(texts.contactIntro)).toBeVisible();
  await shot(page, 'contact-us-375');
  await context.close();
});

test('the client uploads two files, each progress bar reaches done, and can download them', async ({ browser }) => {
  const { page, context } = await freshUser(browser, 'files');
  await page.getByRole('button', { name: 'Upload Files' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Upload File' });
  await expect(dialog).toBeVisible();
  const big = Buffer.alloc(3 * 1024 * 1024, 7);
  await dialog.getByLabel('Files').setInputFiles([
    { name: 'statement.pdf', mimeType: 'application/pdf', buffer: Buffer.concat([Buffer.from('%PDF-1.4\n'), big]) },
    { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('Transfer on 2 May, 5000 USD.\n') },
  ]);
  const rows = dialog.getByTestId('upload-row');
  await expect(rows).toHaveCount(2);
  await shot(page, 'upload-modal-chosen-1280');
  await dialog.getByRole('button', { name: 'Submit' }).click();
  for (const name of ['statement.pdf', 'notes.txt']) {
    const row = rows.filter({ hasText: name });
    await expect(row).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
    await expect(row.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    await expect(row.getByRole('img', { name: 'Uploaded' })).toBeVisible();
  }
  await expect(messageBar(page, 'Files uploaded successfully')).toBeVisible();
  await shot(page, 'upload-modal-done-1280');
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

  await page.goto('/files');
  await expect(page.getByTestId('file-row')).toHaveCount(2);
  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download notes.txt' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe('notes.txt');
  await shot(page, 'files-page-1280');
  await page.setViewportSize({ width: 375, height: 800 });
  await shot(page, 'files-page-375');
  await context.close();
});

test('the admin creates a new user, who sets a password through the emailed link and signs in', async ({ browser }) => {
  const admin = await adminPage(browser, '/create-user');
  await shot(admin.page, 'admin-create-user-1280');
  const email = freshEmail('newuser');
  // Incomplete: Missing information, nothing sent.
  await admin.page.getByLabel(/^First Name/).fill('Dana');
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(messageBar(admin.page, texts.missingInformation)).toBeVisible();
  await expect(admin.page.getByLabel(/^Email/)).toHaveAttribute('type', 'email');

  await admin.page.getByLabel(/^Last Name/).fill('Levi');
  await admin.page.getByLabel(/^Email/).fill(email);
  await admin.page.getByLabel(/^Phone Number/).fill('+972 50 123 4567');
  await admin.page.getByLabel(/^Country/).fill('Israel');
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(messageBar(admin.page, texts.userCreated)).toBeVisible({ timeout: 15_000 });

  let oob: Awaited<ReturnType<typeof readOobCodes>>;
  await expect.poll(async () => (oob = await readOobCodes(email, 'PASSWORD_RESET'))?.oobCode, { timeout: 15_000 }).toBeTruthy();

  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`/initial-password?mode=resetPassword&oobCode=${encodeURIComponent(oob!.oobCode)}`);
  await expect(page.getByText(email)).toBeVisible({ timeout: 15_000 });
  const newPassword = 'Fresh#Pass9';
  await page.getByLabel('New Password', { exact: true }).fill(newPassword);
  await page.getByLabel('Confirm Password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByText(texts.passwordUpdated).first()).toBeVisible({ timeout: 15_000 });

  await signIn(page, email, newPassword);
  await expect(page.getByText('Dana Levi').first()).toBeVisible({ timeout: 15_000 });
  await context.close();

  await admin.page.setViewportSize({ width: 375, height: 800 });
  await shot(admin.page, 'admin-create-user-375');
  await admin.context.close();
});

test("the admin turns a lead into a Client and the lead's Waiting for Approval becomes New Request", async ({ browser }) => {
  const lead = await freshUser(browser, 'lead');
  await lead.page.goto('/tool/track-master');
  await expect(lead.page.getByRole('button', { name: 'Waiting for Approval' })).toBeDisabled();

  const admin = await adminPage(browser, '/create-user');
  await admin.page.getByText('Existing User', { exact: true }).click();
  // Missing fields: Missing information.
  await admin.page.getByLabel(/^User ID/).fill(lead.uid);
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(messageBar(admin.page, texts.missingInformation)).toBeVisible();
  await admin.page.getByLabel(/^Type Of Client/).selectOption({ label: 'Client' });
  await shot(admin.page, 'admin-existing-user-1280');
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(messageBar(admin.page, texts.userLinked)).toBeVisible();

  // Live: the poke refreshes the lead's profile in the replica, no new sign-in and no reload.
  await expect(lead.page.getByRole('button', { name: 'New Request' })).toBeEnabled({ timeout: 15_000 });

  // And back: Lead withdraws the approval.
  await admin.page.getByLabel(/^User ID/).fill(lead.uid);
  await admin.page.getByLabel(/^Type Of Client/).selectOption({ label: 'Lead' });
  await admin.page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(lead.page.getByRole('button', { name: 'Waiting for Approval' })).toBeVisible({ timeout: 15_000 });

  await admin.page.setViewportSize({ width: 375, height: 800 });
  await shot(admin.page, 'admin-existing-user-375');
  await Promise.all([lead.context.close(), admin.context.close()]);
});

test('a non-admin who opens the admin pages is told they are for administrators only', async ({ browser }) => {
  const { page, context } = await freshUser(browser, 'nonadmin');
  for (const path of ['/create-notifications', '/create-user']) {
    await page.goto(path);
    await expect(page.getByRole('alert').filter({ hasText: 'This page is for administrators only.' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Create', exact: true })).toHaveCount(0);
  }
  await shot(page, 'admin-non-admin-1280');
  await context.close();
});
