// Staff make a tracking link, a visitor nobody signed in as opens it and lands on the
// destination, and the client's Live Details follows it live: the link's counts at once, the visit itself
// (country, device, map link) only after payment in full, the spec's placeholder before. Real Chromium
// against the `npm start` stack, where loopback is a trusted proxy (global-setup.ts), so the visitor's
// public address travels in X-Forwarded-For as it would behind the production proxy.
import { expect, test, type Browser, type Page } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { baseUrl, clientWithPaidRequest, DEMO, openContext, shotBoth, signIn } from './support/fixtures.ts';

/** Lagos, Nigeria in the shipped GeoLite2 City data (with coordinates, so the map link shows). */
const VISITOR_IP = '102.89.34.17';
const WHATSAPP_PREVIEW = 'WhatsApp/2.24.6.77 A';

/** A browser context of nobody signed in, as the scammer's phone or a messaging app's preview fetcher. */
async function visitor(browser: Browser, ip: string, userAgent?: string): Promise<Page> {
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': ip }, ...(userAgent ? { userAgent } : {}) });
  return context.newPage();
}

test('a tracking link records a visit that the client sees live, behind the payment gate', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const email = `tracking-${Date.now()}@e2e.test`;
  const password = 'Victim#2026';
  const { requestId } = await clientWithPaidRequest(request, email, password);

  // Staff make a link on the In Progress request, sending visitors to a harmless page of ours.
  const staff = await openContext(browser);
  await signIn(staff, DEMO.staff.email, DEMO.staff.password);
  await staff.goto(`/staff/requests/${requestId}`);
  const form = staff.getByRole('form', { name: 'New tracking link' });
  await form.getByLabel('Label').fill('Receipt for the seller');
  await form.getByLabel('Send visitors to').fill(`${baseUrl()}/login?from=receipt`);
  await form.getByRole('button', { name: 'Create link' }).click();
  await expect(staff.getByText('Tracking link created.')).toBeVisible();
  const staffLink = staff.getByTestId('tracking-link').filter({ hasText: 'Receipt for the seller' });
  const address = await staffLink.getByRole('textbox').inputValue();
  expect(address).toMatch(new RegExp(`^${baseUrl()}/t/[A-Za-z0-9_-]{22}$`));

  // The client sees the link in Live Details, with the advice and the spec's placeholder (not paid in full).
  const client = await openContext(browser);
  await signIn(client, email, password);
  await client.goto('/tool/track-master');
  const row = client.locator(`tr[data-request-id="${requestId}"]`).first();
  await row.getByRole('button', { name: 'Actions' }).click();
  await client.getByRole('menuitem', { name: 'Live Details' }).click();
  const dialog = client.getByRole('dialog', { name: 'Live Details' });
  const clientLink = dialog.getByTestId('tracking-link').filter({ hasText: 'Receipt for the seller' });
  await expect(clientLink.getByRole('textbox')).toHaveValue(address);
  await expect(clientLink.getByTestId('tracking-link-counts')).toHaveText('0 visits');
  await expect(dialog.getByText(texts.liveDetailsUnpaid)).toBeVisible();

  // A messaging app draws the link's preview, then the scammer opens it and lands on the destination.
  const preview = await visitor(browser, '157.240.0.35', WHATSAPP_PREVIEW);
  expect((await preview.request.get(address, { maxRedirects: 0 })).status()).toBe(302);
  const scammer = await visitor(browser, VISITOR_IP);
  await scammer.goto(address);
  await expect(scammer).toHaveURL(`${baseUrl()}/login?from=receipt`);

  // Live, without reopening: the counts move; the visit itself stays behind the gate.
  await expect(clientLink.getByTestId('tracking-link-counts')).toContainText(/^1 visit · last .* · 1 link preview$/, { timeout: 10_000 });
  await expect(dialog.getByText(texts.liveDetailsUnpaid)).toBeVisible();
  await expect(dialog.getByRole('table', { name: 'Visits' })).toHaveCount(0);

  // Staff see it at once, and record the rest of the price: the client's popup opens the visits, live.
  const staffVisits = staff.getByRole('table', { name: 'Visits' });
  await expect(staffVisits.locator('tbody tr')).toHaveCount(1, { timeout: 10_000 });
  await expect(staff.getByTestId('link-previews')).toContainText('WhatsApp');
  const payment = staff.getByTestId('action-payment');
  await payment.getByLabel('Amount').fill('150');
  await payment.getByLabel('Method').selectOption('WIRE');
  await payment.getByLabel('Reference').fill('E2E-REST');
  await payment.getByRole('button', { name: 'Record payment' }).click();
  await expect(staff.getByText('Payment recorded successfully.')).toBeVisible();

  const visits = dialog.getByRole('table', { name: 'Visits' });
  await expect(visits.locator('tbody tr')).toHaveCount(1, { timeout: 15_000 });
  const visit = visits.locator('tbody tr').first();
  await expect(visit).toContainText(VISITOR_IP);
  await expect(visit).toContainText('Nigeria');
  // The parser names headless Chromium as such ("Chrome Headless 131"): a useful hint for staff.
  await expect(visit).toContainText(/Chrome( Headless)? \d+/);
  await expect(visit.getByRole('link', { name: `Map of ${VISITOR_IP}` })).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=6\.4/);
  await expect(dialog.getByTestId('link-previews')).toContainText('WhatsApp');
  await shotBoth(client, 'tracking-client-live-details');
  await shotBoth(staff, 'tracking-staff-request');

  // Disabled, the link answers a plain 404 and records nothing more.
  await staffLink.getByRole('button', { name: 'Disable link' }).click();
  await expect(staff.getByText('Tracking link disabled.')).toBeVisible();
  const late = await scammer.request.get(address);
  expect(late.status()).toBe(404);
  expect(await late.text()).not.toMatch(/track|visit|portal/i);
  await expect(clientLink.getByTestId('tracking-link-counts')).toContainText(/^1 visit/);
});
