// A request Awaiting Payment shows how to pay it (amount left, the business's bank details, the
// reference to quote, a pro-forma invoice made on the device, the recovery-scam notice); when staff record the
// payment that clears it, the panel goes away by itself (poke + pull). An admin's change of the payment details
// reaches a client's open panel live. The settings are put back as seeded at the end, for the other specs.
import { readFile } from 'node:fs/promises';
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { requestRef } from '../../domain/tools.ts';
import { DEMO, bearer, createEmulatorUser, dataOf, idToken, openContext, shot, shotBoth, signIn, verifyApiSession } from './support/fixtures.ts';
import { pdfText } from './support/pdf-text.ts';

const PASSWORD = 'Secret#2026';
const ACCOUNT_NUMBER = 'GB33 BUKB 2020 1555 5555 55';

/** An approved client with a Track Master request priced at $450 and Awaiting Payment, made through the API as staff. */
async function clientAwaitingPayment(request: APIRequestContext, email: string) {
  const { idToken: clientToken, uid } = await createEmulatorUser(email, PASSWORD);
  await dataOf(await request.get('/api/user', { headers: bearer(clientToken) }));
  const staff = { headers: bearer(await idToken(DEMO.staff.email, DEMO.staff.password)) };
  const profile = await dataOf<{ client: { version: number } }>(await request.get(`/api/staff/clients/${uid}`, staff));
  await dataOf(await request.post(`/api/staff/clients/${uid}/approval`, { ...staff, data: { version: profile.client.version } }));
  const order = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: 'He asked for money.' };
  const created = await dataOf<{ id: string }>(await request.post('/api/trackMasterProcess', { headers: bearer(clientToken), data: { trackMasterProcess: order } }));
  const path = `/api/staff/requests/${created.id}`;
  const priced = await dataOf<{ version: number; refNo: number; productRequestType: string }>(
    await request.post(`${path}/transition`, { ...staff, data: { to: 'Waiting for actions', totalAmount: 450, version: 1 } }),
  );
  let version = priced.version;
  /** Staff record a payment, as the workspace would. */
  const pay = async (amount: number) => {
    const answer = await dataOf<{ request: { version: number } }>(
      await request.post(`${path}/payments`, { ...staff, data: { amount, method: 'WIRE', paidAt: '2026-11-20', reference: 'E2E', version } }),
    );
    version = answer.request.version;
  };
  return { requestId: created.id, ref: requestRef(priced)!, pay };
}

const row = (page: Page, requestId: string) => page.locator(`[data-request-id="${requestId}"]`);
const panel = (page: Page) => page.getByTestId('how-to-pay');

async function openHowToPay(page: Page, requestId: string, ref: string) {
  await page.goto('/tool/track-master');
  await row(page, requestId).getByRole('button', { name: `How to pay ${ref}` }).click();
  await expect(page.getByRole('dialog', { name: `How to pay ${ref}` })).toBeVisible();
}

test('How to pay: amount left, bank details, reference, warning and a pro-forma PDF; it goes away live once paid', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = `how-to-pay-${Date.now()}@e2e.test`;
  const { requestId, ref, pay } = await clientAwaitingPayment(request, email);
  expect(ref).toMatch(/^TM-\d{4,}$/);

  await signIn(page, email, PASSWORD);
  await openHowToPay(page, requestId, ref);
  await expect(page.getByTestId('how-to-pay-amount')).toHaveText('$450.00');
  await expect(page.getByTestId('how-to-pay-ref')).toHaveText(ref);
  await expect(page.getByTestId('payment-details')).toContainText(ACCOUNT_NUMBER);
  await expect(page.getByTestId('payment-details')).toContainText('BUKBGB22');
  await expect(page.getByTestId('safety-notice')).toContainText('We never ask for gift cards');
  await expect(page.getByTestId('safety-notice').getByRole('link', { name: /really us/ })).toHaveAttribute('href', '/stay-safe');
  await shotBoth(page, 'how-to-pay-panel', { noSidewaysScroll: true });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download pro-forma invoice' }).click()]);
  expect(download.suggestedFilename()).toBe(`pro-forma-${ref}.pdf`);
  const text = pdfText(await readFile((await download.path())!));
  expect(text).toContain(`Reference: ${ref}`);
  expect(text).toContain('Amount left to pay: $450.00');
  expect(text).toContain(`IBAN / account number: ${ACCOUNT_NUMBER}`);
  expect(text).toContain(`Payment reference to quote: ${ref}`);

  // A part payment: the panel stays and shows what is left, without a reload.
  await pay(200);
  await expect(page.getByTestId('how-to-pay-amount')).toHaveText('$250.00', { timeout: 15_000 });
  // The rest: the panel and the row's button go away by themselves.
  await pay(250);
  await expect(panel(page)).toBeHidden({ timeout: 15_000 });
  await expect(row(page, requestId).getByRole('button', { name: `How to pay ${ref}` })).toHaveCount(0);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await shot(page, 'how-to-pay-paid-1280');
});

test('the admin edits the payment details and a client’s open panel shows the new text live', async ({ browser, page, request }) => {
  test.setTimeout(120_000);
  const email = `how-to-pay-edit-${Date.now()}@e2e.test`;
  const { requestId, ref } = await clientAwaitingPayment(request, email);
  const adminToken = await idToken(DEMO.admin.email, DEMO.admin.password);
  const seeded = await dataOf<Record<string, unknown> & { version: number }>(await request.get('/api/staff/business-settings', { headers: bearer(adminToken) }));

  await signIn(page, email, PASSWORD);
  await openHowToPay(page, requestId, ref);
  await expect(page.getByTestId('payment-note')).toContainText('Pay by bank transfer only');

  const admin = await openContext(browser);
  await signIn(admin, DEMO.admin.email, DEMO.admin.password);
  await admin.getByRole('link', { name: 'Business settings' }).first().click();
  await expect(admin.getByRole('heading', { name: 'Business settings' })).toBeVisible();
  await expect(admin.getByLabel('IBAN / account number')).toHaveValue(ACCOUNT_NUMBER);
  await shotBoth(admin, 'business-settings-admin', { noSidewaysScroll: true });

  // A bad domain is refused on the form, with the field's own message.
  await admin.getByLabel('Official web domains').fill('https://demo.test/login');
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText('official web domain "https://demo.test/login" must be a domain')).toBeVisible();
  await admin.getByLabel('Official web domains').fill('demo.test');

  const note = `Transfers arrive in 1 to 2 working days (${Date.now()}).`;
  await admin.getByLabel('Note for clients').fill(note);
  await admin.getByRole('button', { name: 'Save' }).click();
  await expect(admin.getByText("Business settings saved. Each client's device gets them at its next sync.")).toBeVisible();

  // The client's open panel changes without a reload.
  await expect(page.getByTestId('payment-note')).toHaveText(note, { timeout: 15_000 });
  await shot(page, 'how-to-pay-after-admin-edit-1280');
  await admin.context().close();

  // Put the seeded settings back for the other specs.
  // A step-up action: the API session kept for the worker verifies again, however long the run has taken.
  await verifyApiSession(DEMO.admin.email, adminToken);
  const now = await dataOf<{ version: number }>(await request.get('/api/staff/business-settings', { headers: bearer(adminToken) }));
  const { id: _id, updatedAt: _updatedAt, paymentDetailsChangedAt: _changedAt, ...fields } = seeded;
  await dataOf(await request.put('/api/staff/business-settings', { headers: bearer(adminToken), data: { ...fields, version: now.version } }));
});
