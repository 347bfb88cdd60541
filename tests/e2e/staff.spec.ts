// One real case run end to end by a staff member and a client side by side, in two
// Chromium contexts against the `npm start` stack; then two staff members acting on one request.
import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { bearer, createEmulatorUser, dataOf, DEMO, idToken, openContext, PDF, shot, shotBoth, signIn } from './support/fixtures.ts';

/** The client's newest row of a tool table. */
const newestRow = (page: Page, tool: string) => page.getByRole('table', { name: tool, exact: true }).locator('tbody tr').first();

test('a case from sign-up to a downloaded report, staff and client side by side', async ({ browser }) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const email = `victim-${stamp}@e2e.test`;
  const password = 'Victim#2026';
  await createEmulatorUser(email, password); // what the external sign-up page does

  const client = await openContext(browser);
  const staff = await openContext(browser);

  // A new lead signs in and waits for approval.
  await signIn(client, email, password);
  await expect(client.getByText(texts.awaitingApproval)).toBeVisible();

  // Staff land on the queue, find the lead and approve them.
  await signIn(staff, DEMO.staff.email, DEMO.staff.password);
  await expect(staff).toHaveURL(/\/staff\/?(\?.*)?$/);
  await expect(staff.getByRole('heading', { name: 'Staff workspace', level: 1 })).toBeVisible();
  await staff.getByRole('tab', { name: /Leads to approve/ }).click();
  await staff.getByLabel('Search').fill(email);
  const leadRow = staff.getByTestId('queue-row').filter({ hasText: email });
  await expect(staff.getByTestId('queue-row')).toHaveCount(1); // the search has applied
  await shotBoth(staff, 'staff-queue');
  await leadRow.getByRole('link', { name: 'Open' }).click();
  await staff.getByRole('button', { name: 'Approve' }).click();
  await staff.getByRole('dialog', { name: 'Approve this client?' }).getByRole('button', { name: 'Yes, approve' }).click();
  await expect(staff.getByText('Client approved successfully.')).toBeVisible();

  // The client's banner goes live, without a reload, and they fill the initial form.
  await expect(client.getByText(texts.awaitingApproval)).toHaveCount(0, { timeout: 10_000 });
  await client.getByRole('link', { name: 'Fill in the initial form' }).click();
  await client.getByLabel('Money lost').fill('2500');
  await client.getByLabel('Date of last transfer').fill('01/10/2026');
  await client.getByLabel('Time of last transfer', { exact: true }).fill('10:30');
  await client.getByLabel('Fraud type').selectOption({ label: 'Investments' });
  await client.getByLabel('Fraud URL').fill('https://fake-broker.example');
  await client.getByRole('button', { name: 'Submit' }).click();
  await expect(client.getByText(texts.initialFormFilled)).toBeVisible();

  // The client orders Bank Dispute with their bank statement.
  await client.goto('/tool/bank-dispute');
  await client.getByRole('button', { name: 'New Request' }).click();
  const form = client.getByRole('dialog');
  await form.getByLabel('Amount Lost', { exact: false }).fill('2500');
  await form.getByLabel('Transaction Date', { exact: false }).fill('28/09/2026');
  await form.getByLabel('Transactions Bank Used', { exact: false }).fill('Barclays');
  await form.getByLabel('Payment Method', { exact: false }).selectOption('wire');
  await form.getByLabel('Bank Statement', { exact: false }).setInputFiles({ name: 'statement.pdf', mimeType: 'application/pdf', buffer: PDF });
  await form.getByRole('button', { name: 'Continue' }).click();
  const terms = client.getByRole('dialog', { name: 'Terms and Conditions' });
  await terms.getByText('I have read and agree').click();
  await terms.getByRole('button', { name: 'Submit request' }).click();
  await expect(client.getByText(texts.requestSubmitted)).toBeVisible();
  await client.goto('/tool/bank-dispute');
  const row = newestRow(client, 'Bank Dispute');
  await expect(row).toHaveAttribute('data-status', 'Pending', { timeout: 20_000 });
  await expect(row.getByText(texts.waitingToSend)).toHaveCount(0, { timeout: 20_000 });

  // Staff open the client's page, then the request, and see the evidence with its SHA-256.
  await staff.reload();
  await expect(staff.getByRole('region', { name: 'Requests', exact: true })).toBeVisible();
  await shotBoth(staff, 'staff-client-page');
  await staff.goto(`/staff?tab=pending&q=${encodeURIComponent(email)}`);
  const requestRow = staff.getByTestId('queue-row').filter({ hasText: 'Bank Dispute' });
  await expect(requestRow).toHaveCount(1);
  await requestRow.getByRole('link', { name: 'Open' }).click();
  await expect(staff.getByRole('heading', { name: 'Bank Dispute request', level: 1 })).toBeVisible();
  await expect(staff.getByText('statement.pdf').first()).toBeVisible();
  await expect(staff.getByText(createHash('sha256').update(PDF).digest('hex')).first()).toBeVisible();

  // Pricing: the client sees Awaiting Payment and the amount, live.
  const price = staff.getByTestId('action-price');
  await price.getByRole('textbox', { name: /^Price/ }).fill('1600');
  await price.getByText('Contract signed').click();
  await price.getByRole('button', { name: 'Set price' }).click();
  await expect(staff.getByText('Price set successfully.')).toBeVisible();
  await expect(row).toHaveAttribute('data-status', 'Waiting for actions', { timeout: 10_000 });
  await expect(row.getByText('Awaiting Payment')).toBeVisible();
  await row.getByRole('button', { name: 'Actions' }).click();
  await client.getByRole('menuitem', { name: 'Request Details', exact: true }).click();
  const details = client.getByRole('dialog', { name: 'Request Details' });
  await expect(details.getByText('$1,600.00').first()).toBeVisible();
  await client.keyboard.press('Escape');

  // A partial payment: its invoice reaches the client's Billings and opens as a PDF.
  await recordPayment(staff, '600', 'TX-600');
  await shotBoth(staff, 'staff-request-page');
  await client.goto('/settings');
  await client.getByRole('tab', { name: 'Billings' }).click();
  const billing = client.getByRole('table', { name: 'Billings' }).locator('tbody tr').filter({ hasText: 'Bank Dispute' }).first();
  const invoiceLink = billing.getByRole('link', { name: 'Invoice' });
  await expect(invoiceLink).toBeVisible({ timeout: 10_000 });
  const invoice = await client.request.get((await invoiceLink.getAttribute('href'))!);
  expect(invoice.status()).toBe(200);
  expect(invoice.headers()['content-type']).toContain('application/pdf');
  expect((await invoice.body()).subarray(0, 5).toString()).toBe('%PDF-');

  // Work starts, the report is delivered and the request is Done.
  await confirmAction(staff, 'Start work', 'Yes, start work', 'Work started successfully.');
  const deliver = staff.getByTestId('action-deliver');
  await deliver.getByLabel('Final report').setInputFiles({ name: 'final-report.pdf', mimeType: 'application/pdf', buffer: PDF });
  await deliver.getByRole('button', { name: 'Upload final file' }).click();
  await expect(staff.getByText('Final file uploaded successfully.')).toBeVisible();
  await confirmAction(staff, 'Mark as Done', 'Yes, mark as Done', 'Request marked as Done.');

  // Done but not paid in full: the client's download stays refused.
  await client.goto('/tool/bank-dispute');
  await expect(row).toHaveAttribute('data-status', 'Done', { timeout: 10_000 });
  await row.getByRole('button', { name: 'Actions' }).click();
  const download = client.getByRole('menuitem', { name: 'Download File' });
  await expect(download.getByTestId('download-error-icon')).toBeVisible();
  await expect(download).toBeDisabled();
  await client.keyboard.press('Escape');

  // The rest is paid: the download unlocks, live, and brings the delivered file.
  await recordPayment(staff, '1000', 'TX-1000');
  await expect(staff.getByTestId('request-left')).toContainText('$0.00');
  await expect(async () => {
    await client.keyboard.press('Escape');
    await row.getByRole('button', { name: 'Actions' }).click();
    await expect(client.getByRole('menuitem', { name: 'Download File' })).toBeEnabled({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  const saved = client.waitForEvent('download');
  await client.getByRole('menuitem', { name: 'Download File' }).click();
  const file = await saved;
  expect(file.suggestedFilename()).toBe('final-report.pdf');
  expect(await file.failure()).toBeNull();

  // Every step is in the request's history.
  await staff.reload();
  await expect(staff.getByTestId('history-entry')).toHaveCount(6); // price, payment, start, deliver, done, payment
  await client.context().close();
  await staff.context().close();
});

async function recordPayment(staff: Page, amount: string, reference: string) {
  const payment = staff.getByTestId('action-payment');
  await payment.getByLabel('Amount').fill(amount);
  await payment.getByLabel('Method').selectOption('WIRE');
  await payment.getByLabel('Reference').fill(reference);
  await payment.getByRole('button', { name: 'Record payment' }).click();
  await expect(staff.getByText('Payment recorded successfully.')).toBeVisible();
  await expect(staff.getByText('Payment recorded successfully.')).toHaveCount(0, { timeout: 10_000 });
}

async function confirmAction(staff: Page, button: string, confirm: string, success: string) {
  await staff.getByRole('button', { name: button, exact: true }).click();
  await staff.getByRole('button', { name: confirm }).click();
  await expect(staff.getByText(success)).toBeVisible();
}

test('two staff members record a payment on the same request: the second sees what changed, redoes it, nothing is lost', async ({
  browser,
  request,
}) => {
  // A fresh client with a priced Track Master request, made through the API.
  const email = `conflict-${Date.now()}@e2e.test`;
  const { idToken: clientToken, uid } = await createEmulatorUser(email, 'Victim#2026');
  await dataOf(await request.get('/api/user', { headers: bearer(clientToken) }));
  const staffToken = await idToken(DEMO.staff.email, DEMO.staff.password);
  const profile = await dataOf<{ client: { version: number } }>(await request.get(`/api/staff/clients/${uid}`, { headers: bearer(staffToken) }));
  await dataOf(await request.post(`/api/staff/clients/${uid}/approval`, { headers: bearer(staffToken), data: { version: profile.client.version } }));
  const order = { fraudType: 'romance', fraudUrl: 'https://hearts.example', communicationChannel: 'WhatsApp', notes: 'He asked for money.' };
  const created = await dataOf<{ id: string }>(await request.post('/api/trackMasterProcess', { headers: bearer(clientToken), data: { trackMasterProcess: order } }));
  await dataOf(
    await request.post(`/api/staff/requests/${created.id}/transition`, { headers: bearer(staffToken), data: { to: 'Waiting for actions', version: 1, totalAmount: 450 } }),
  );

  const first = await openContext(browser);
  const second = await openContext(browser);
  await signIn(first, DEMO.staff.email, DEMO.staff.password);
  await signIn(second, DEMO.admin.email, DEMO.admin.password);
  for (const page of [first, second]) {
    await page.goto(`/staff/requests/${created.id}`);
    await expect(page.getByTestId('request-left')).toContainText('$450.00');
  }

  // The second types their payment while the first records one.
  const stale = second.getByTestId('action-payment');
  await stale.getByLabel('Amount').fill('50');
  await stale.getByLabel('Method').selectOption('CARD');
  await stale.getByLabel('Reference').fill('SECOND');
  await recordPayment(first, '100', 'FIRST');
  await stale.getByRole('button', { name: 'Record payment' }).click();

  const alert = second.getByTestId('conflict-alert');
  await expect(alert).toBeVisible();
  await expect(alert.getByRole('heading', { name: /changed/ })).toBeVisible();
  const changes = alert.getByRole('list', { name: 'What changed' });
  await expect(changes).toContainText('$0.00 → $100.00');
  await expect(stale.getByLabel('Amount')).toHaveValue('50'); // what they typed is kept
  await shot(second, 'staff-conflict-1280');
  await alert.getByRole('button', { name: 'Redo on the fresh state' }).click();
  await expect(second.getByText('Payment recorded successfully.')).toBeVisible();
  await expect(second.getByTestId('request-paid')).toContainText('$150.00');

  // Both payments are in the database: nothing was overwritten.
  const file = await dataOf<{ deals: { amount: number; reference: string | null }[]; request: { paid: number } }>(
    await request.get(`/api/staff/requests/${created.id}`, { headers: bearer(staffToken) }),
  );
  expect(file.deals.map((d) => [d.amount, d.reference]).sort()).toEqual([
    [100, 'FIRST'],
    [50, 'SECOND'],
  ]);
  expect(file.request.paid).toBe(150);
  await first.context().close();
  await second.context().close();
});
