// The tool page explains the tool in three steps (no
// broken video frame); every request row carries its reference (TM-0042), on phones with the request's key
// detail on a second line; Request Details and the notifications name the reference; Billings and Live
// Details are stacked cards at 375 px; IP Details reads in words, grouped. One client, one sign-in.
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { ROOT } from '../../scripts/emulator.ts';
import { baseUrl, bearer, clientWithPaidRequest, dataOf, DESKTOP, idToken, PHONE, shot, signIn } from './support/fixtures.ts';

/** Lagos, Nigeria in the shipped GeoLite2 City data. */
const VISITOR_IP = '102.89.34.17';

/** What the viewport shows (a full-page capture draws an open dialog's fixed layers out of place). */
async function viewShot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ROOT, 'tests', 'output', 'screenshots', `${name}.png`) });
}

async function fitsPhone(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

/** No box of the dialog scrolls sideways (a text field scrolling its own long address is not a box). */
async function dialogFits(page: Page, name: string): Promise<void> {
  const wide = await page.getByRole('dialog', { name }).evaluate((dialog) =>
    [dialog, ...dialog.querySelectorAll('*')]
      .filter((el) => !['INPUT', 'TEXTAREA'].includes(el.tagName) && ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => el.className),
  );
  expect(wide).toEqual([]);
}

test('rows told apart by reference, the three steps, stacked Billings and Live Details, IP Details in words', async ({ page, request }) => {
  test.setTimeout(240_000);
  const email = `rows-${Date.now()}@e2e.test`;
  const password = 'Victim#2026';
  const { requestId, staffToken } = await clientWithPaidRequest(request, email, password);
  const client = { headers: bearer(await idToken(email, password)) };
  for (const fraudUrl of ['https://quick-coins.example', 'https://royal-trade.example']) {
    const order = { fraudType: 'crypto', fraudUrl, communicationChannel: 'Telegram', notes: 'Another site of theirs.' };
    await dataOf(await request.post('/api/trackMasterProcess', { ...client, data: { trackMasterProcess: order } }));
  }
  // A visit through a tracking link, and the rest of the price, so Live Details lists it.
  const link = await dataOf<{ slug: string }>(
    await request.post(`/api/staff/requests/${requestId}/tracking-links`, { headers: bearer(staffToken), data: { label: 'Receipt', destination: null } }),
  );
  expect((await request.get(`${baseUrl()}/t/${link.slug}`, { headers: { 'X-Forwarded-For': VISITOR_IP }, maxRedirects: 0 })).status()).toBeLessThan(400);
  const file = await dataOf<{ request: { version: number } }>(await request.get(`/api/staff/requests/${requestId}`, { headers: bearer(staffToken) }));
  await dataOf(
    await request.post(`/api/staff/requests/${requestId}/payments`, {
      headers: bearer(staffToken),
      data: { version: file.request.version, amount: 150, method: 'WIRE', paidAt: '2026-11-21', reference: 'E2E-REST' },
    }),
  );

  await page.setViewportSize(DESKTOP);
  await signIn(page, email, password);
  await page.goto('/tool/track-master');
  const table = page.getByRole('table', { name: 'Track Master' });
  const rows = table.locator('tbody tr');
  await expect(rows).toHaveCount(3, { timeout: 20_000 });

  // 1. No video configured: the three steps of the catalogue, no frame.
  const steps = page.getByRole('region', { name: 'How Track Master works' }).getByRole('listitem');
  await expect(steps).toHaveCount(3);
  await expect(steps.nth(1)).toContainText('Send them your tracking link');
  await expect(page.locator('iframe')).toHaveCount(0);

  // 2. Every row has its own reference, the same the server gave (TM- and the number).
  await expect(rows.getByTestId('request-ref')).toHaveCount(3);
  const refs = await rows.getByTestId('request-ref').allTextContents();
  for (const ref of refs) expect(ref).toMatch(/^TM-\d{4,}$/);
  expect(new Set(refs).size).toBe(3);
  await expect(rows.getByTestId('request-summary')).toHaveCount(0);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'client-rows-tool-page-1280');

  // On a phone: the date is hidden, the second line tells the rows apart.
  await page.setViewportSize(PHONE);
  await expect(rows.getByTestId('request-summary')).toHaveCount(3);
  const summaries = await rows.getByTestId('request-summary').allTextContents();
  expect(summaries.toSorted()).toEqual(['Fraud URL: hearts.example', 'Fraud URL: quick-coins.example', 'Fraud URL: royal-trade.example']);
  // Read in full, not cut to "Fraud URL: http…".
  for (const line of await rows.getByTestId('request-summary').all()) expect(await line.evaluate((el) => el.scrollHeight <= el.clientHeight + 1)).toBe(true);
  expect(await rows.getByTestId('request-ref').allTextContents()).toEqual(refs);
  await fitsPhone(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'client-rows-tool-page-375');

  // Request Details names the row's reference.
  const paidRow = table.locator(`tr[data-request-id="${requestId}"]`);
  const paidRef = (await paidRow.getByTestId('request-ref').textContent()) ?? '';
  await paidRow.getByRole('button', { name: `Actions for ${paidRef}` }).click();
  await page.getByRole('menuitem', { name: 'Request Details' }).click();
  await expect(page.getByRole('dialog', { name: 'Request Details' }).getByTestId('details-ref')).toHaveText(paidRef);
  await page.keyboard.press('Escape');

  // Live Details at 375 px: the visit as a card, nothing scrolling sideways.
  await paidRow.getByRole('button', { name: `Actions for ${paidRef}` }).click();
  await page.getByRole('menuitem', { name: 'Live Details' }).click();
  const live = page.getByRole('dialog', { name: 'Live Details' });
  await expect(live.getByTestId('live-details-ref')).toContainText(paidRef);
  await expect(live.getByTestId('visit-card')).toHaveCount(1, { timeout: 15_000 });
  await expect(live.getByTestId('visit-card')).toContainText(VISITOR_IP);
  await dialogFits(page, 'Live Details');
  await viewShot(page, 'client-rows-live-details-375');

  // IP Details: words, grouped, only what is known.
  await live.getByTestId('visit-card').getByRole('button', { name: 'IP Details' }).click();
  const ip = page.getByRole('dialog', { name: 'IP Details' });
  await expect(ip.getByRole('heading', { level: 3 })).toHaveText(['Location', 'Network', 'Device']);
  await expect(ip.getByRole('region', { name: 'Location' })).toContainText('Nigeria (NG)');
  await expect(ip.getByRole('region', { name: 'Network' })).toContainText('IP address');
  for (const raw of ['idd_cod', 'mcc', 'usage_type', 'credits_consumed', 'country_name', 'response']) await expect(ip).not.toContainText(raw);
  await dialogFits(page, 'IP Details');
  await viewShot(page, 'client-rows-ip-details-375');
  await page.setViewportSize(DESKTOP);
  await viewShot(page, 'client-rows-ip-details-1280');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // The client's notifications about the request name it by its reference.
  await page.goto('/notifications');
  await expect(page.getByText(`Your Track Master request ${paidRef} has been priced at $450.00`, { exact: false })).toBeVisible({ timeout: 20_000 });

  // Billings: a table on desktop, one card per invoice on a phone, the whole link in view.
  await page.goto('/settings');
  await page.getByRole('tab', { name: 'Billings' }).click();
  await expect(page.getByRole('table', { name: 'Billings' }).locator('tbody tr')).toHaveCount(2);
  await expect(page.getByRole('table', { name: 'Billings' })).toContainText(paidRef);
  await shot(page, 'client-rows-billings-1280');
  await page.setViewportSize(PHONE);
  const cards = page.getByRole('list', { name: 'Billings' }).getByTestId('billing-card');
  await expect(cards).toHaveCount(2);
  const invoice = cards.first().getByRole('link', { name: /^Invoice INV-\d+/ });
  await expect(invoice).toBeVisible();
  const box = await invoice.boundingBox();
  expect(box && box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  await fitsPhone(page);
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'client-rows-billings-375');
});
