// Four eyes on where clients pay (docs/decisions/032-payment-details-four-eyes.md): the demo admin proposes new bank
// details, is told plainly that with one admin the change waits, and the client's open How to pay keeps the old ones.
// The demo admin follows the message to Team and makes a second admin there (added as staff, then Make admin, asked
// first with what an admin can do); the second admin sees the proposal with the old and new values and approves it;
// the client's open panel then shows the new details and the warning live, and so does Stay safe. At the end the
// seeded details are put back the same way, and the second admin loses the role through the role route, for the
// specs that run after this one on the same stack.
import { type APIRequestContext, type Page, expect, test } from '@playwright/test';
import { paymentDetailsChangedText } from '../../domain/business-settings.ts';
import { formatDate } from '../../domain/format.ts';
import { requestRef } from '../../domain/tools.ts';
import { DEMO, bearer, createEmulatorUser, dataOf, enrolAuthenticator, idToken, openContext, shotBoth, signIn, verifyApiSession } from './support/fixtures.ts';

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

/** An account as anyone makes one on the sign-up page, with its profile: the admin to be. */
async function someAccount(request: APIRequestContext, email: string) {
  const { idToken: token } = await createEmulatorUser(email, PASSWORD);
  await dataOf(await request.get('/api/user', { headers: bearer(token) }));
}

/** On the Team page: adds the account as a staff member, then makes them an admin, confirming in the dialog. */
async function makeAdminInTeam(page: Page, email: string) {
  await page.getByRole('form', { name: 'Add a staff member' }).getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Add staff member' }).click();
  const row = page.getByTestId('team-member').filter({ hasText: email });
  await expect(row.getByText('Staff', { exact: true })).toBeVisible();
  await row.getByRole('button', { name: `Make ${email} an admin` }).click();
  const dialog = page.getByRole('dialog', { name: `Make ${email} an admin?` });
  await expect(dialog.getByTestId('admin-powers').getByRole('listitem')).toHaveText([
    'approve payment details changes',
    'edit business settings',
    'create users',
    'change roles, making or removing admins',
  ]);
  await shotBoth(page, 'team-make-admin-confirm', { noSidewaysScroll: true });
  await dialog.getByRole('button', { name: 'Yes, make admin' }).click();
  await expect(page.getByText(`${email} is now an admin.`).first()).toBeVisible();
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: `Remove the admin role of ${email}` })).toBeVisible();
  // One's own row offers no role change: the route refuses one's own admin role, and so the last admin's.
  await expect(page.getByTestId('team-member').filter({ hasText: DEMO.admin.email }).getByRole('button')).toHaveCount(0);
  await shotBoth(page, 'team-with-second-admin', { noSidewaysScroll: true });
}

const details = (page: Page) => page.getByTestId('payment-details');

test('new bank details wait for a second admin; once approved, the client sees them and the warning live', async ({ browser, page, request }) => {
  test.setTimeout(180_000);
  const stamp = Date.now();
  const clientEmail = `four-eyes-client-${stamp}@e2e.test`;
  const otherAdminEmail = `four-eyes-admin-${stamp}@e2e.test`;
  const { requestId, ref } = await clientAwaitingPayment(request, clientEmail);
  const aliceToken = await idToken(DEMO.admin.email, DEMO.admin.password);
  const aliceApi = { headers: bearer(aliceToken) };
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

  // The demo admin follows the single-admin message to Team and makes a second admin there; the message then goes.
  await someAccount(request, otherAdminEmail);
  await alice.getByRole('link', { name: 'Add an admin in Team.' }).click();
  await expect(alice).toHaveURL(/\/staff\/team$/);
  await makeAdminInTeam(alice, otherAdminEmail);
  await alice.goto('/staff/business-settings');
  await expect(alice.getByTestId('payment-proposal')).toContainText(NEW.accountNumber);
  await expect(alice.getByTestId('single-admin')).toHaveCount(0);

  // The second admin sees old and new and who proposed it, and approves.
  const bob = await openContext(browser);
  await signIn(bob, otherAdminEmail, PASSWORD);
  // A new admin sets up a second factor at the first staff sign-in.
  await enrolAuthenticator(bob, otherAdminEmail);
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
  // Both are step-up actions: the API session kept for the worker verifies again, however long the run has taken.
  await verifyApiSession(DEMO.admin.email, aliceToken);
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
  const team = await dataOf<{ uid: string; email: string; version: number }[]>(await request.get('/api/staff/team', aliceApi));
  const second = team.find((member) => member.email === otherAdminEmail);
  expect(second).toBeDefined();
  await dataOf(await request.put(`/api/staff/users/${second?.uid}/role`, { ...aliceApi, data: { version: second?.version, admin: false } }));
});
