// Web Push on this device and the notification switches. Headless Chromium cannot reach a real push service, so
// the page's PushManager is stubbed to hand out a subscription of the test's own push receiver (a loopback endpoint
// and real keys: the server stores it like any other, encrypts for it and signs with its VAPID key), and the push the
// receiver decrypts is delivered to the app's service worker with the DevTools command ServiceWorker.deliverPushMessage. A notification cannot be clicked headless: the service worker's test message
// runs the same click.
import { type APIRequestContext, type BrowserContext, type Page, type Worker, expect, test } from '@playwright/test';
import { DEMO, DESKTOP, baseUrl, bearer, clientWithPaidRequest, dataOf, idToken, shotBoth, signIn } from './support/fixtures.ts';
import { waitForServiceWorker } from './support/offline.ts';
import { type PushReceiver, startPushReceiver } from '../../server/notify/test-support/push-receiver.ts';

const PASSWORD = 'Secret#2026';

/** A subscription as a push service gives it (the test's push receiver makes them with keys it can decrypt for). */
type TestSubscription = ReturnType<PushReceiver['subscribe']>;

/**
 * Replaces the page's PushManager.subscribe / getSubscription with one that returns `subscription`, made with the
 * key the app asked for; kept in localStorage so a reload still has it, as a browser does.
 */
async function stubPushManager(context: BrowserContext, subscription: TestSubscription): Promise<void> {
  await context.addInitScript((sub) => {
    const KEY = 'e2e.pushSubscription';
    const make = (key: number[]) => ({
      endpoint: sub.endpoint,
      expirationTime: null,
      options: { userVisibleOnly: true, applicationServerKey: new Uint8Array(key).buffer },
      toJSON: () => sub,
      unsubscribe: async () => {
        localStorage.removeItem(KEY);
        return true;
      },
    });
    PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
      const key = Array.from(new Uint8Array(options?.applicationServerKey as ArrayBuffer));
      localStorage.setItem(KEY, JSON.stringify(key));
      return make(key) as unknown as PushSubscription;
    };
    PushManager.prototype.getSubscription = async function () {
      const key = localStorage.getItem(KEY);
      return key ? (make(JSON.parse(key) as number[]) as unknown as PushSubscription) : null;
    };
  }, subscription);
}

/** POSTs the subscription as its owner: 200 when the server already has it for them, 201 when it is new to them. */
async function postAgain(request: APIRequestContext, token: string, subscription: TestSubscription): Promise<number> {
  return (await request.post('/api/push/subscriptions', { headers: bearer(token), data: subscription })).status();
}

/** Delivers `data` to the app's service worker as a push, through DevTools. */
async function deliverPush(page: Page, data: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  const scope = `${baseUrl()}/`;
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const mine = registrations.find((r) => r.scopeURL === scope && !r.isDeleted);
      if (mine) resolve(mine.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: baseUrl(), registrationId: await registrationId, data });
  await cdp.detach();
}

interface ShownNotification {
  title: string;
  body: string;
  tag: string;
  data: { url: string; id: string | null };
}

/** The app's service worker, as Playwright reaches it (its code runs there through evaluate). */
function appWorker(context: BrowserContext): Worker {
  const worker = context.serviceWorkers().find((w) => w.url() === `${baseUrl()}/sw.js`);
  if (!worker) throw new Error('the app has no service worker');
  return worker;
}

function shownNotifications(worker: Worker): Promise<ShownNotification[]> {
  return worker.evaluate(async () => {
    const registration = (self as unknown as ServiceWorkerGlobalScope).registration;
    return (await registration.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as { url: string; id: string | null } }));
  });
}

/**
 * Whether this Chromium shows notifications. The npm-shipped headless shell refuses every showNotification ("No
 * notification permission has been granted", whatever the permissions say), so there the registration's
 * showNotification and getNotifications are replaced by a list kept in the worker, with the browser's rules (one
 * notification per tag, close() removes it). Everything else (the push event, the worker's handlers, the click's
 * navigation) is the app's own code either way.
 */
async function notificationsShownByBrowser(worker: Worker): Promise<boolean> {
  return worker.evaluate(async () => {
    const registration = (self as unknown as ServiceWorkerGlobalScope).registration;
    const shows = await registration.showNotification('probe', { tag: 'probe' }).then(
      () => true,
      () => false,
    );
    if (shows) {
      for (const n of await registration.getNotifications({ tag: 'probe' })) n.close();
      return true;
    }
    type Kept = { title: string; body: string; tag: string; data: unknown; close(): void };
    let kept: Kept[] = [];
    registration.showNotification = async (title: string, options: NotificationOptions = {}) => {
      const tag = options.tag ?? '';
      const notification: Kept = { title, body: options.body ?? '', tag, data: options.data ?? null, close: () => void (kept = kept.filter((k) => k !== notification)) };
      kept = [...kept.filter((k) => !tag || k.tag !== tag), notification];
    };
    registration.getNotifications = async (filter?: GetNotificationOptions) => kept.filter((k) => !filter?.tag || k.tag === filter.tag) as unknown as Notification[];
    return false;
  });
}

const deviceSwitch = (page: Page) => page.getByRole('checkbox', { name: 'Notify me on this device' });

test('a client turns on push here, a push shows neutral words, and its click opens the request', async ({ browser, request }) => {
  test.setTimeout(150_000);
  const email = `push-${Date.now()}@e2e.test`;
  const { staffToken } = await clientWithPaidRequest(request, email, PASSWORD);
  const token = await idToken(email, PASSWORD);
  // A push service of the test's own: it decrypts what the server sends with this device's keys.
  const { publicKey } = await dataOf<{ publicKey: string }>(await request.get('/api/push/public-key'));
  const receiver = await startPushReceiver({ vapidPublicKey: publicKey });
  const subscription = receiver.subscribe();

  const context = await browser.newContext({ baseURL: baseUrl(), viewport: DESKTOP });
  await context.grantPermissions(['notifications'], { origin: baseUrl() });
  await stubPushManager(context, subscription);
  const page = await context.newPage();
  await signIn(page, email, PASSWORD);
  await waitForServiceWorker(page);

  await page.goto('/settings?tab=notifications');
  await expect(page.getByRole('tab', { name: 'Notifications', selected: true })).toBeVisible();
  await expect(deviceSwitch(page)).not.toBeChecked();
  // A client has no staff alerts.
  await expect(page.getByRole('checkbox', { name: 'New leads' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Show details on the lock screen' })).not.toBeChecked();

  // Turning it on subscribes this device and gives the subscription to the server.
  const saved = page.waitForResponse((r) => r.url().endsWith('/api/push/subscriptions') && r.request().method() === 'POST');
  await page.getByText('Notify me on this device', { exact: true }).click();
  const answer = await saved;
  expect(answer.status()).toBe(201);
  expect(answer.request().postDataJSON()).toEqual(subscription);
  await expect(deviceSwitch(page)).toBeChecked();
  expect(await postAgain(request, token, subscription)).toBe(200);
  await shotBoth(page, 'settings-notifications-client', { noSidewaysScroll: true });

  // A push with the server's neutral words is shown as sent, with the screen to open.
  const worker = appWorker(context);
  if (!(await notificationsShownByBrowser(worker))) {
    test.info().annotations.push({ type: 'note', description: "this Chromium shows no notifications: the worker's shown list stands in for the browser's" });
  }
  // Staff price a new request: the server's worker pushes to this device; the test's push service decrypts it and
  // hands it to the app's service worker as the browser's push service would.
  const order = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: 'A second one.' };
  const { id: requestId } = await dataOf<{ id: string }>(await request.post('/api/trackMasterProcess', { headers: bearer(token), data: { trackMasterProcess: order } }));
  const before = receiver.received.length;
  await dataOf(await request.post(`/api/staff/requests/${requestId}/transition`, { headers: bearer(staffToken), data: { to: 'Waiting for actions', totalAmount: 700, version: 1 } }));
  const [push] = (await receiver.waitFor(before + 1)).slice(before);
  expect(push.problems).toEqual([]);
  const payload = JSON.parse(push.payload ?? 'null') as { id: string; url: string; tag: string; body: string };
  const url = `/tool/track-master?request=${requestId}`;
  expect(payload).toMatchObject({ v: 1, title: 'Recovery', body: 'You have a new update', url });
  expect(JSON.stringify(payload)).not.toContain('700');
  const tag = payload.tag;
  await deliverPush(page, push.payload!);
  await expect.poll(() => shownNotifications(worker), { timeout: 20_000 }).toEqual([{ title: 'Recovery', body: 'You have a new update', tag, data: { url, id: payload.id } }]);

  // A push the worker cannot read is still shown, neutral, opening the dashboard.
  await deliverPush(page, 'not a payload');
  await expect
    .poll(async () => (await shownNotifications(worker)).find((n) => n.tag === 'update'), { timeout: 20_000 })
    .toEqual({ title: 'Recovery', body: 'You have a new update', tag: 'update', data: { url: '/', id: null } });

  // The click brings the open app to the request's details.
  await page.goto('/');
  await waitForServiceWorker(page);
  // The signed-in shell listens for the worker's messages once it shows.
  await expect(page.getByText('Welcome back')).toBeVisible();
  await page.evaluate((t) => navigator.serviceWorker.controller!.postMessage({ type: 'notification-click-test', tag: t }), tag);
  await expect(page).toHaveURL(new RegExp(`/tool/track-master\\?request=${requestId}$`));
  const details = page.getByRole('dialog', { name: 'Request Details' });
  await expect(details).toBeVisible();
  await expect(details.getByTestId('details-ref')).toHaveText(/TM-/);
  // The clicked one is closed; the other stays.
  expect((await shownNotifications(worker)).map((n) => n.tag)).toEqual(['update']);
  // Closing the details leaves the link, so a reload does not open them again.
  await page.keyboard.press('Escape');
  await expect(page).toHaveURL(/\/tool\/track-master$/);

  // Signing out makes the server forget this device: the same subscription is new to the account again.
  await page.goto('/settings?tab=notifications');
  await page.getByRole('button', { name: 'Log out', exact: true }).click();
  // Commands still unsent (the seen marks, if the server has not answered them yet) ask first.
  const anyway = page.getByRole('button', { name: 'Sign out anyway' });
  await expect(anyway.or(page.getByRole('button', { name: 'Sign In', exact: true }))).toBeVisible({ timeout: 20_000 });
  if (await anyway.isVisible()) await anyway.click();
  await expect(page).toHaveURL(/\/login/, { timeout: 20_000 });
  expect(await postAgain(request, token, subscription)).toBe(201);
  await context.close();
  await receiver.close();
});

test('switches turned offline show at once, stay after a reload and reach the server when back online', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL: baseUrl(), viewport: DESKTOP });
  const page = await context.newPage();
  await signIn(page, DEMO.staff.email, DEMO.staff.password);
  await waitForServiceWorker(page);
  await page.goto('/settings?tab=notifications');
  const email = page.getByRole('checkbox', { name: 'Email' });
  const refunds = page.getByRole('checkbox', { name: 'Refund requests' });
  const lockScreen = page.getByRole('checkbox', { name: 'Show details on the lock screen' });
  await expect(email).toBeChecked();
  await expect(refunds).toBeChecked();
  await expect(deviceSwitch(page)).not.toBeChecked();
  await shotBoth(page, 'settings-notifications-staff', { noSidewaysScroll: true });

  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
  await page.getByText('Email', { exact: true }).click();
  await page.getByText('Refund requests', { exact: true }).click();
  await page.getByText('Show details on the lock screen', { exact: true }).click();
  await expect(email).not.toBeChecked();
  await expect(refunds).not.toBeChecked();
  await expect(lockScreen).toBeChecked();

  await page.reload();
  await expect(email).not.toBeChecked();
  await expect(refunds).not.toBeChecked();
  await expect(lockScreen).toBeChecked();

  await context.setOffline(false);
  const token = await idToken(DEMO.staff.email, DEMO.staff.password);
  const serverRow = async () => (await dataOf<{ notificationPreferences: Record<string, unknown>[] }>(await request.get('/api/sync?cursor=0', { headers: bearer(token) }))).notificationPreferences.at(-1);
  await expect.poll(serverRow, { timeout: 30_000 }).toMatchObject({ email: false, staffRefunds: false, lockScreenDetails: true, generalUpdates: true, staffLeads: true });
  await context.close();
});

test("a notification's links open their screen: a conversation, the Billings tab", async ({ browser, request }) => {
  test.setTimeout(90_000);
  const email = `links-${Date.now()}@e2e.test`;
  await clientWithPaidRequest(request, email, PASSWORD);
  const token = await idToken(email, PASSWORD);
  const post = async (subject: string) =>
    dataOf<{ id: string }>(await request.post('/api/contact', { headers: bearer(token), data: { contactRequest: { subject, message: `About ${subject}` } } }));
  await post('First question');
  const linked = await post('Second question');
  await post('Third question');

  const context = await browser.newContext({ baseURL: baseUrl(), viewport: DESKTOP });
  const page = await context.newPage();
  await signIn(page, email, PASSWORD);
  await page.goto(`/contact-requests?thread=${linked.id}`);
  const threads = page.getByTestId('contact-request');
  await expect(threads).toHaveCount(3);
  // Only the linked conversation is open.
  await expect(threads.filter({ hasText: 'Second question' }).getByTestId('conversation')).toHaveAttribute('data-open', 'true');
  await expect(threads.filter({ hasText: 'First question' }).getByTestId('conversation')).toHaveAttribute('data-open', 'false');
  await expect(threads.filter({ hasText: 'Second question' }).getByRole('button', { name: 'Hide conversation' })).toBeVisible();

  await page.goto('/settings?tab=billings');
  await expect(page.getByRole('tab', { name: 'Billings', selected: true })).toBeVisible();
  // A value the app does not know falls back to the first tab instead of an error.
  await page.goto('/settings?tab=nonsense');
  await expect(page.getByRole('tab', { name: 'Profile', selected: true })).toBeVisible();
  await context.close();
});
