// The admin's Notification delivery page, end to end: a push the push service refuses becomes a failed delivery,
// the page lists it, and Send again queues it so the worker sends it once more (under the same id).
import { createECDH, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { DeliveryItem } from '../../domain/push.ts';
import { texts } from '../../domain/texts.ts';
import { DEMO, bearer, createEmulatorUser, dataOf, idToken, shotBoth, signIn } from './support/fixtures.ts';

/**
 * A push service of our own on loopback (the local stack accepts http: endpoints there): it refuses every push
 * with 400, which the worker records as failed at once, until `accept` is set; it counts what it was sent.
 */
class PushService {
  server: Server;
  received: string[] = [];
  accept = false;
  constructor() {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.received.push(String(req.headers.topic ?? ''));
        res.writeHead(this.accept ? 201 : 400, { 'content-type': 'text/plain' }).end(this.accept ? '' : 'UnauthorizedRegistration');
      });
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/push/${randomBytes(8).toString('hex')}`;
  }
}

const service = new PushService();
test.afterAll(() => new Promise<void>((resolve) => service.server.close(() => resolve())));

test('a refused push is listed as failed, and Send again sends it once more', async ({ page, request }) => {
  const endpoint = await service.start();
  const email = `deliveries-${Date.now()}@e2e.test`;
  const { uid, idToken: clientToken } = await createEmulatorUser(email, 'Secret#2026');
  await dataOf(await request.get('/api/user', { headers: bearer(clientToken) }));
  // A real browser key pair's shape: an uncompressed P-256 public key and a 16-byte secret.
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') };
  await dataOf(await request.post('/api/push/subscriptions', { headers: bearer(clientToken), data: { endpoint, keys } }));

  const adminToken = await idToken(DEMO.admin.email, DEMO.admin.password);
  const admin = { headers: bearer(adminToken) };
  await dataOf(await request.post(`/api/notification/${uid}`, { ...admin, data: { notification: { message: 'We have news about your case.' } } }));

  const failedPush = async () =>
    (await dataOf<DeliveryItem[]>(await request.get('/api/admin/deliveries?state=failed', admin))).find((d) => d.recipientUid === uid && d.channel === 'push');
  await expect.poll(async () => (await failedPush())?.lastStatus, { timeout: 20_000 }).toBe(400);
  const failed = (await failedPush())!;
  expect(service.received).toHaveLength(1);

  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.getByRole('link', { name: 'Notification delivery' }).first().click();
  await expect(page).toHaveURL(/\/staff\/deliveries$/);
  await expect(page.getByRole('heading', { name: 'Notification delivery', level: 1 })).toBeVisible();
  const row = page.getByRole('table', { name: 'Deliveries' }).locator(`[data-delivery-id="${failed.id}"]`);
  await expect(row).toBeVisible();
  for (const text of ['Notification', 'Push', email, 'Failed']) await expect(row.getByText(text, { exact: true })).toBeVisible();
  await expect(row.getByText(/\b400\b/)).toBeVisible();

  await shotBoth(page, 'admin-deliveries', { noSidewaysScroll: true });
  // The phone shows the same delivery as a card with its own button.
  await page.setViewportSize({ width: 375, height: 800 });
  const card = page.getByTestId('delivery-card').and(page.locator(`[data-delivery-id="${failed.id}"]`));
  await expect(card.getByRole('button', { name: /^Send again/ })).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  // The push service takes it this time: the worker sends the same delivery (its Topic is the delivery's id).
  service.accept = true;
  await row.getByRole('button', { name: /^Send again/ }).click();
  await expect(row.getByText('Queued', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: /^Send again/ })).toHaveCount(0);
  await expect.poll(() => service.received.length, { timeout: 20_000 }).toBe(2);
  expect(service.received[1]).toBe(service.received[0]);
  expect(service.received[1]).toBe(failed.id.replaceAll('-', ''));

  // Sent now: it leaves the default list (on this fresh stack the only delivery that ever failed) and shows as Sent among everything.
  await page.getByRole('button', { name: 'Refresh list' }).click();
  await expect(page.locator(`[data-delivery-id="${failed.id}"]`)).toHaveCount(0);
  await expect(page.getByText('Every notification was delivered.')).toBeVisible();
  await shotBoth(page, 'admin-deliveries-empty');
  await page.getByLabel('Show').selectOption({ label: 'All finished (also sent and skipped)' });
  await expect(row.getByText('Sent', { exact: true })).toBeVisible();
});

test('a client sees neither the link nor the page', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await expect(page.getByRole('link', { name: 'Notification delivery' })).toHaveCount(0);
  await page.goto('/staff/deliveries');
  await expect(page.getByText('This page is for administrators only.')).toBeVisible();
  await context.close();
});

test('offline, the list says it needs a connection, not that something went wrong', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await signIn(page, DEMO.admin.email, DEMO.admin.password);
  await page.getByRole('link', { name: 'Notification delivery' }).first().click();
  await expect(page.getByRole('heading', { name: 'Deliveries' })).toBeVisible();
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Refresh list' }).click();
  await expect(page.getByRole('alert').filter({ hasText: texts.needsConnection })).toBeVisible();
  await expect(page.getByText(texts.somethingWentWrong)).toHaveCount(0);
  await context.setOffline(false);
  // Back online the page asks again by itself, and the notice goes.
  await expect(page.getByRole('alert').filter({ hasText: texts.needsConnection })).toHaveCount(0);
  await context.close();
});
