// A support conversation and a refund decision, client and staff side by side in two
// Chromium contexts against the `npm start` stack. What the client sees arrives live (no reload).
import { expect, test } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { bearer, clientWithPaidRequest, dataOf, DEMO, openContext, shotBoth, signIn } from './support/fixtures.ts';

test('a support conversation and a refund decision, both ways, live', async ({ browser, request }) => {
  test.setTimeout(240_000);
  const email = `support-${Date.now()}@e2e.test`;
  const password = 'Victim#2026';
  const { uid, requestId, staffToken } = await clientWithPaidRequest(request, email, password);

  const client = await openContext(browser);
  const staff = await openContext(browser);
  await signIn(client, email, password);
  await signIn(staff, DEMO.staff.email, DEMO.staff.password);

  // The client writes to support.
  await client.goto('/contact-us');
  await client.getByLabel('Subject').fill('Where is my money?');
  await client.getByLabel('Message').fill('I paid and want to know what happens next.');
  await client.getByRole('button', { name: 'Send' }).click();
  await expect(client.getByText(texts.messageSent)).toBeVisible();

  // Staff find it in "Awaiting our reply" and answer on the client's page.
  await staff.goto(`/staff?tab=threads&q=${encodeURIComponent(email)}`);
  const threadRow = staff.getByTestId('queue-row').filter({ hasText: 'Where is my money?' });
  await expect(threadRow).toHaveCount(1, { timeout: 20_000 });
  await threadRow.getByRole('link').first().click();
  const staffThread = staff.getByTestId('thread').filter({ hasText: 'Where is my money?' });
  await staffThread.getByLabel('Your reply').fill('We have started tracing the payment.');
  await staffThread.getByRole('button', { name: 'Send reply' }).click();
  await expect(staffThread.getByTestId('message').filter({ hasText: 'We have started tracing the payment.' })).toBeVisible();

  // The client sees the reply live under their message, and answers in the thread.
  await client.goto('/contact-requests');
  const item = client.getByTestId('contact-request').filter({ hasText: 'Where is my money?' });
  await expect(item.getByTestId('reply-count')).toHaveText('1 reply', { timeout: 15_000 });
  await item.getByRole('button', { name: 'Show conversation' }).click();
  await expect(item.locator('[data-testid="contact-reply"][data-author="staff"]')).toContainText('We have started tracing the payment.');
  await item.getByLabel('Your reply').fill('Thank you, I will wait.');
  await item.getByRole('button', { name: 'Send' }).click();
  await expect(item.locator('[data-testid="contact-reply"][data-author="client"]')).toContainText('Thank you, I will wait.');
  await shotBoth(client, 'support-client-thread');

  // Staff see the answer and close the thread; the client sees it closed, live.
  await expect(staffThread.getByTestId('message').filter({ hasText: 'Thank you, I will wait.' })).toBeVisible({ timeout: 15_000 });
  await shotBoth(staff, 'support-staff-thread');
  await staffThread.getByRole('button', { name: 'Close conversation' }).click();
  await expect(item.getByTestId('thread-status')).toHaveAttribute('data-thread-status', 'closed', { timeout: 15_000 });

  // The client asks a refund offline: the row says "Refund requested" at once, as a waiting command.
  await client.goto('/tool/track-master');
  const row = client.locator(`tr[data-request-id="${requestId}"]`).first();
  await expect(row).toBeVisible();
  await client.context().setOffline(true);
  await row.getByRole('button', { name: 'Actions' }).click();
  await client.getByRole('menuitem', { name: 'Refund' }).click();
  const dialog = client.getByRole('dialog', { name: 'Request Refund' });
  await dialog.getByLabel('Reason').fill('The scammer was found but I need part of it back now.');
  await dialog.getByText('Partial refund').click();
  await dialog.getByRole('button', { name: 'Send' }).click();
  await expect(row.getByTestId('refund-badge')).toHaveAttribute('data-refund-status', 'requested');
  await expect(row.getByTestId('refund-badge')).toContainText(texts.waitingToSend);
  await shotBoth(client, 'support-client-refund-waiting');
  await client.context().setOffline(false);
  await expect(row.getByTestId('refund-badge')).toHaveAttribute('data-pending', 'false', { timeout: 30_000 });

  // Staff decide it from the queue: approve $100 of the $300 paid.
  await staff.goto(`/staff?tab=refunds&q=${encodeURIComponent(email)}`);
  const refundRow = staff.getByTestId('queue-row').first();
  await expect(staff.getByTestId('queue-row')).toHaveCount(1, { timeout: 20_000 });
  await refundRow.getByRole('link').first().click();
  const decision = staff.getByTestId('refund-decision');
  await decision.getByLabel('Refund amount').fill('100');
  await decision.getByLabel('Note to the client').fill('The rest pays for the work already done.');
  await decision.getByRole('button', { name: 'Approve refund' }).click();
  await staff.getByRole('button', { name: 'Yes, approve refund' }).click();
  await expect(staff.getByText('Refund approved.')).toBeVisible();

  // The client sees the decision live on the row and in Request Details.
  await expect(row.getByTestId('refund-badge')).toHaveAttribute('data-refund-status', 'approved', { timeout: 15_000 });
  await shotBoth(client, 'support-client-refund-row');
  await row.getByRole('button', { name: 'Actions' }).click();
  await client.getByRole('menuitem', { name: 'Request Details' }).click();
  const section = client.getByTestId('refund-section');
  await expect(section).toHaveAttribute('data-refund-status', 'approved');
  await expect(section).toContainText('$100.00');
  await expect(section).toContainText('The rest pays for the work already done.');
  await shotBoth(client, 'support-client-refund-details');

  // Exactly once, counted on the server: one refund, one staff reply and one client reply.
  const file = await dataOf<{ refunds: { status: string; amount: number | null }[]; threads: { subject: string; replies: { author: string }[] }[] }>(
    await request.get(`/api/staff/clients/${uid}`, { headers: bearer(staffToken) }),
  );
  expect(file.refunds.map((r) => [r.status, r.amount])).toEqual([['approved', 100]]);
  expect(file.threads.map((t) => [t.subject, t.replies.map((r) => r.author)])).toEqual([['Where is my money?', ['staff', 'client']]]);
  await client.context().close();
  await staff.context().close();
});
