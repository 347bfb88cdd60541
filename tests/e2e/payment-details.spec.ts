// Four eyes on where clients pay (docs/decisions/033-payment-details-four-eyes.md): the demo admin proposes new bank
// details, is told plainly that with one admin the change waits, and the client's open How to pay keeps the old ones.
// A second admin (made through the test-only route: no screen makes admins) sees the proposal with the old and new
// values and approves it; the client's open panel then shows the new details and the warning live, and so does Stay
// safe. At the end the seeded details are put back the same way, and the second admin loses the role, for the specs
// that run after this one on the same stack.
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { paymentDetailsChangedText } from '../../domain/business-settings.ts';
import { formatDate } from '../../domain/format.ts';
import { requestRef } from '../../domain/tools.ts';
import { DEMO, bearer, createEmulatorUser, dataOf, idToken, openContext, shotBoth, signIn } from './support/fixtures.ts';

const PASSWORD = 'Secret#2026';
const SEEDED_ACCOUNT = 'GB33 BUKB 2020 1555 5555 55';
const NEW = { bankName: 'Harbour Savings Bank', accountNumber: 'GB94 BARC 1020 1530 0934 59', bic: 'BARCGB22' };

/** An approved client with a Track Master request priced at $450 and Awaiting Payment, made through the API as staff. */
async function clientAwaitingPayment(request: APIRequestContext, email: string) {
  const { idToken: clientToken, uid } = await createEmulatorUser(email, PASSWORD);
  await dataOf(await request.get('/api/user', { headers: bearer(clientToken) }));
  const staff = { headers: bearer(await idToken(DEMO.staff.email, DEMO.staff.password)) };
  const profile = await dataOf<{ client: { version: number } }>(await request.get(`/api/staff/clients/${uid}`, staff));
  await dataOf(await request.post(`/api/staff/clients/${uid}/approval`, { ...staff, data: { version: profile.client.version } }));
  const order = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: 'He asked for money.' };
  const created = await dataOf<{ id: string }>(await request.post('/api/trackMasterProcess', { headers: bearer(clientToken), data: { trackMasterProcess: order } }));
  const priced = await dataOf<{ refNo: number; productRequestType: string }>(
    await request.post(`/api/staff/requests/${created.id}/transition`, { ...staff, data: { to: 'Waiting for actions', totalAmount: 450, version: 1 } }),
  );
  return { requestId: created.id, ref: requestRef(priced)! };
}

/** A second admin: an account as any user makes one, then the admin role through the test-only route. */
async function secondAdmin(request: APIRequestContext, email: string) {
  const { idToken: token } = await createEmulatorUser(email, PASSWORD);
  await dataOf(await request.get('/api/user', { headers: bearer(token) }));
  await dataOf(await request.post('/api/__test/admin', { data: { email, admin: true } }));
}

const details = (page: Page) => page.getByTestId('payment-details');

test('new bank details wait for a second admin; once approved, the client sees them and the warning live', async ({ browser, page, request }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const clientEmail = `four-eyes-client-${stamp}@e2e.test`;
  const otherAdminEmail = `four-eyes-admin-${stamp}@e2e.test`;
  const { requestId, ref } = await clientAwaitingPayment(request, clientEmail);
  const aliceApi = { headers: bearer(await idToken(DEMO.admin.email, DEMO.admin.password)) };
  const seeded = await dataOf<Record<string, unknown>>(await request.get('/api/staff/business-settings', aliceApi));
  expect(seeded.accountNumber).toBe(SEEDED_ACCOUNT);

  // The client has How to pay open, with the seeded details.
  await signIn(page, clientEmail, PASSWORD);
  await page.goto('/tool/track-master');
  await page.locator(`[data-request-id="${requestId}"]`).getByRole('button', { name: `How to pay ${ref}` }).click();
  await expect(details(page)).toContainText(SEEDED_ACCOUNT);
  await expect(page.getByTestId('payment-details-changed')).toHaveCount(0);

  // The demo admin, the only admin, proposes new bank details.
  const alice = await openContext(browser);
  await signIn(alice, DEMO.admin.email, DEMO.admin.password);
  await alice.goto('/staff/business-settings');
  await expect(alice.getByLabel('IBAN / account number')).toHaveValue(SEEDED_ACCOUNT);
  await alice.getByLabel(/^Bank/).fill(NEW.bankName);
  await alice.getByLabel('IBAN / account number').fill(NEW.accountNumber);
  await alice.getByLabel('BIC / SWIFT').fill(NEW.bic);
  await alice.getByRole('button', { name: 'Save' }).click();
  await expect(alice.getByText('The new payment details wait for a second admin’s approval.', { exact: false }).first()).toBeVisible();
  const proposalCard = alice.getByTestId('payment-proposal');
  await expect(proposalCard).toContainText(NEW.accountNumber);
  await expect(alice.getByTestId('single-admin')).toHaveText('Only one admin: a second admin must approve this change before clients see it. Add an admin in Team.');
  await expect(proposalCard.getByRole('button', { name: 'Approve' })).toHaveCount(0);
  await expect(proposalCard.getByRole('button', { name: 'Withdraw' })).toBeVisible();
  // The form is back on what clients see; the proposal waits above it.
  await expect(alice.getByLabel('IBAN / account number')).toHaveValue(SEEDED_ACCOUNT);
  await shotBoth(alice, 'payment-details-proposed-single-admin', { noSidewaysScroll: true });

  // The client's open panel still shows the old details (the pull after the admins' pokes brought nothing new).
  await page.reload();
  await page.locator(`[data-request-id="${requestId}"]`).getByRole('button', { name: `How to pay ${ref}` }).click();
  await expect(details(page)).toContainText(SEEDED_ACCOUNT);
  await expect(details(page)).not.toContainText(NEW.accountNumber);

  // A second admin sees old and new and who proposed it, and approves.
  await secondAdmin(request, otherAdminEmail);
  const bob = await openContext(browser);
  await signIn(bob, otherAdminEmail, PASSWORD);
  await bob.goto('/staff/business-settings');
  const bobsCard = bob.getByTestId('payment-proposal');
  await expect(bobsCard).toContainText(`Proposed by ${DEMO.admin.email}`);
  await expect(bob.getByTestId('proposal-accountNumber')).toContainText(`Now: ${SEEDED_ACCOUNT}New: ${NEW.accountNumber}`);
  await expect(bobsCard.getByRole('button', { name: 'Withdraw' })).toHaveCount(0);
  await shotBoth(bob, 'payment-details-second-admin', { noSidewaysScroll: true });
  await bob.setViewportSize({ width: 1280, height: 800 });
  await bobsCard.getByRole('button', { name: 'Approve' }).click();
  await expect(bob.getByText('New payment details approved.', { exact: false }).first()).toBeVisible();
  await expect(bob.getByTestId('payment-proposal')).toHaveCount(0);

  // The client's open panel changes without a reload: new details, and the warning with today's date.
  const warning = paymentDetailsChangedText(formatDate(Date.now()));
  await expect(details(page)).toContainText(NEW.accountNumber, { timeout: 15_000 });
  await expect(page.getByTestId('payment-details-changed')).toHaveText(warning);
  await shotBoth(page, 'payment-details-changed-how-to-pay', { noSidewaysScroll: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/stay-safe');
  await expect(page.getByTestId('payment-details-changed')).toHaveText(warning);
  await shotBoth(page, 'payment-details-changed-stay-safe', { noSidewaysScroll: true });

  // The proposer's page follows too (a notification arrived): no proposal left, the form on the new details.
  await expect(alice.getByTestId('payment-proposal')).toHaveCount(0, { timeout: 15_000 });
  await expect(alice.getByLabel('IBAN / account number')).toHaveValue(NEW.accountNumber);
  await Promise.all([alice.context().close(), bob.context().close()]);

  // Put the seeded details back (a proposal and an approval again) and take the second admin's role away.
  const bobApi = { headers: bearer(await idToken(otherAdminEmail, PASSWORD)) };
  const now = await dataOf<Record<string, unknown> & { version: number }>(await request.get('/api/staff/business-settings', aliceApi));
  const { id: _id, updatedAt: _updatedAt, paymentDetailsChangedAt: _changedAt, ...fields } = now;
  const back = await dataOf<{ proposal: { id: string } }>(
    await request.put('/api/staff/business-settings', {
      ...aliceApi,
      data: { ...fields, accountHolder: seeded.accountHolder, bankName: seeded.bankName, accountNumber: seeded.accountNumber, bic: seeded.bic },
    }),
  );
  await dataOf(await request.post(`/api/staff/business-settings/proposals/${back.proposal.id}/approve`, bobApi));
  await dataOf(await request.post('/api/__test/admin', { data: { email: otherAdminEmail, admin: false } }));
});
