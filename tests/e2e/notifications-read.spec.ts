// The bell counts unread notifications only; opening the popup marks them read, on the server
// (so it holds after a reload and on another device) and offline (queued, shown at once).
// Only personal notifications: a general one would reach the users of support-admin.spec.ts, which expects none.
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { DEMO, PHONE, bearer, createEmulatorUser, dataOf, idToken, shot, signIn } from './support/fixtures.ts';
import { waitForServiceWorker } from './support/offline.ts';

const PASSWORD = 'Secret#2026';
const bell = (page: Page) => page.getByRole('button', { name: 'Notifications', exact: true });
const badge = (page: Page) => page.getByTestId('notifications-badge');
const popup = (page: Page) => page.getByTestId('notifications-popup');
/** The user agent of the test's Chromium. */
let CHROMIUM_AGENT = '';

async function openPopup(page: Page, items: number) {
  await bell(page).click();
  await expect(popup(page)).toBeVisible();
  await expect(popup(page).getByTestId('notification-item')).toHaveCount(Math.min(items, 4));
}

async function closePopup(page: Page) {
  await page.keyboard.press('Escape');
  await expect(popup(page)).toBeHidden();
}

/**
 * The marker the server holds for the user, as their other devices will pull it. Asked with the browser's user agent:
 * a session from a browser and system the user never used would bring a sign-in alert, one notification more.
 */
async function serverMarker(request: APIRequestContext, token: string): Promise<string | undefined> {
  const page = await dataOf<{ notificationReads: { readUpTo: string }[] }>(await request.get('/api/sync?cursor=0', { headers: { ...bearer(token), 'user-agent': CHROMIUM_AGENT } }));
  return page.notificationReads.at(-1)?.readUpTo;
}

test('the badge goes from 3 to 0 on opening the popup and stays 0 after a reload, offline and on another device', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const email = `reader-${Date.now()}@e2e.test`;
  const { uid, idToken: userToken } = await createEmulatorUser(email, PASSWORD);
  const adminToken = await idToken(DEMO.admin.email, DEMO.admin.password);
  const send = async (n: number) =>
    dataOf<{ createdAt: string }>(await request.post(`/api/notification/${uid}`, { headers: bearer(adminToken), data: { notification: { message: `Case update #${n}: we called your bank.` } } }));

  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  CHROMIUM_AGENT = await page.evaluate(() => navigator.userAgent);
  await signIn(page, email, PASSWORD);
  await waitForServiceWorker(page);

  // Three arrive live (poke + pull): three unread.
  for (const n of [1, 2]) await send(n);
  const third = await send(3);
  await expect(badge(page)).toHaveText('3', { timeout: 20_000 });
  await shot(page, 'notifications-read-badge-3-1280');

  // Opening shows them labelled New and clears the badge; the server gets the marker.
  await openPopup(page, 3);
  await expect(popup(page).getByTestId('notification-new')).toHaveCount(3);
  await expect(badge(page)).toHaveCount(0);
  await shot(page, 'notifications-read-popup-1280');
  await closePopup(page);
  await expect.poll(() => serverMarker(request, userToken), { timeout: 20_000 }).toBe(third.createdAt);

  // After a reload: still 0, and nothing is New (the marker came back from the replica, not from memory).
  await page.reload();
  await openPopup(page, 3);
  await expect(popup(page).getByTestId('notification-new')).toHaveCount(0);
  await expect(badge(page)).toHaveCount(0);
  await closePopup(page);

  // A fourth one, read offline: the badge clears at once and stays clear through an offline reload.
  const fourth = await send(4);
  await expect(badge(page)).toHaveText('1', { timeout: 20_000 });
  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
  await openPopup(page, 4);
  await expect(popup(page).getByTestId('notification-new')).toHaveCount(1);
  await expect(badge(page)).toHaveCount(0);
  await closePopup(page);
  await page.reload();
  await expect(bell(page)).toBeVisible();
  await openPopup(page, 4);
  await expect(popup(page).getByTestId('notification-new')).toHaveCount(0);
  await expect(badge(page)).toHaveCount(0);
  await closePopup(page);
  await shot(page, 'notifications-read-offline-1280');
  expect(await serverMarker(request, userToken), 'nothing reached the server while offline').toBe(third.createdAt);

  // Back online the queued command is sent.
  await context.setOffline(false);
  await expect.poll(() => serverMarker(request, userToken), { timeout: 30_000 }).toBe(fourth.createdAt);

  // Another device (a phone) starts with everything read.
  const phone = await browser.newContext({ viewport: PHONE });
  const phonePage = await phone.newPage();
  await signIn(phonePage, email, PASSWORD);
  await openPopup(phonePage, 4);
  await expect(popup(phonePage).getByTestId('notification-new')).toHaveCount(0);
  await expect(badge(phonePage)).toHaveCount(0);
  await closePopup(phonePage);
  // …and counts a new one, which it then reads for both devices.
  const fifth = await send(5);
  await expect(badge(phonePage)).toHaveText('1', { timeout: 20_000 });
  await shot(phonePage, 'notifications-read-badge-1-375');
  await openPopup(phonePage, 5);
  await expect(badge(phonePage)).toHaveCount(0);
  await shot(phonePage, 'notifications-read-popup-375');
  await expect.poll(() => serverMarker(request, userToken), { timeout: 20_000 }).toBe(fifth.createdAt);
  await expect(badge(page)).toHaveCount(0);
  await Promise.all([context.close(), phone.close()]);
});
