// Issue 12, "Show": Retry, Edit and Discard from the outbox panel, and honest feedback, against the
// `npm start` stack. The 4xx comes from the server's own rule, which the UI cannot check beforehand:
// a refund asked for while the request looked In Progress on the device, but that staff rejected meanwhile
// (409 NOT_REFUNDABLE). Counted on the server at the end: one refund for the edited command, none other.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { bearer, createEmulatorUser, dataOf, DEMO, idToken, shot, signIn } from './support/fixtures.ts';

/** What the server answers a refund of a request staff rejected (server/routes/requests.ts, checkRefundable). */
const notRefundable = 'Only requests that are In Progress or Done can be refunded; this request is Rejected.';

/** An approved client with `count` Track Master requests, each priced and In Progress: made through the API. */
async function clientWithRequestsInProgress(request: APIRequestContext, email: string, password: string, count: number) {
  const { idToken: clientToken, uid } = await createEmulatorUser(email, password);
  await dataOf(await request.get('/api/user', { headers: bearer(clientToken) }));
  const staffToken = await idToken(DEMO.staff.email, DEMO.staff.password);
  const staff = { headers: bearer(staffToken) };
  const profile = await dataOf<{ client: { version: number } }>(await request.get(`/api/staff/clients/${uid}`, staff));
  await dataOf(await request.post(`/api/staff/clients/${uid}/approval`, { ...staff, data: { version: profile.client.version } }));

  const versions = new Map<string, number>();
  /** A staff transition of one request, carrying the version it was made from. */
  const transition = async (id: string, data: Record<string, unknown>) => {
    const answer = await dataOf<{ version?: number; request?: { version: number } }>(
      await request.post(`/api/staff/requests/${id}/transition`, { ...staff, data: { ...data, version: versions.get(id) ?? 1 } }),
    );
    versions.set(id, answer.request?.version ?? answer.version ?? (versions.get(id) ?? 1) + 1);
  };
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const order = { fraudType: 'romance', fraudUrl: `https://hearts-${i}.example`, communicationChannel: 'WhatsApp', notes: `Outbox panel case ${i}.` };
    const created = await dataOf<{ id: string }>(await request.post('/api/trackMasterProcess', { headers: bearer(clientToken), data: { trackMasterProcess: order } }));
    await transition(created.id, { to: 'Waiting for actions', totalAmount: 450 });
    await transition(created.id, { to: 'In Progress' });
    ids.push(created.id);
  }
  const reject = (id: string) => transition(id, { to: 'Rejected', reason: 'Closed by staff while the refund was on its way.' });
  return { uid, ids, staffToken, reject };
}

/** Opens Refund from a row's menu and fills the dialog; returns the dialog, Send not clicked yet. */
async function fillRefund(page: Page, requestId: string, reason: string) {
  await page.locator(`tr[data-request-id="${requestId}"]`).getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Refund' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request Refund' });
  await dialog.getByLabel('Reason').fill(reason);
  await dialog.getByText('Partial refund').click();
  return dialog;
}

const refundAnswer = (page: Page, status: number) =>
  page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/refund') && r.status() === status, { timeout: 60_000 });

test('a refused command: Retry still fails, Edit sends the fix once, Discard undoes the other', async ({ page, request }) => {
  test.setTimeout(240_000);
  const email = `outbox-panel-${Date.now()}@e2e.test`;
  const password = 'Victim#2026';
  const { uid, ids, staffToken, reject } = await clientWithRequestsInProgress(request, email, password, 3);
  const [first, second, third] = ids;
  const editedReason = 'Edited in the outbox: the third case is the one to refund.';

  await signIn(page, email, password);
  await page.goto('/tool/track-master');
  const row = (id: string) => page.locator(`tr[data-request-id="${id}"]`);
  for (const id of ids) await expect(row(id)).toHaveAttribute('data-status', 'In Progress', { timeout: 20_000 });

  // Online, refused: the dialog waits for the server and says why, never "Refund Request Sent.", and stays open.
  const refusedOnline = await fillRefund(page, second, 'Refused online, to be discarded.');
  await reject(second);
  const refused = refundAnswer(page, 409);
  await refusedOnline.getByRole('button', { name: 'Send' }).click();
  await refused;
  await expect(page.getByText(`Not sent: ${notRefundable}`)).toBeVisible();
  await expect(page.getByText(/Open the outbox to edit or discard it/)).toBeVisible();
  await expect(page.getByText(texts.refundSent)).toHaveCount(0);
  await expect(refusedOnline).toBeVisible();
  await refusedOnline.getByRole('button', { name: 'Cancel' }).click();
  await expect(refusedOnline).toHaveCount(0);

  // Offline: saved on the device at once; staff reject the request before the device is back.
  await page.context().setOffline(true);
  const offline = await fillRefund(page, first, 'First try, refused once back online.');
  await offline.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(texts.sentWhenOnline).first()).toBeVisible();
  await expect(offline).toHaveCount(0);
  await expect(row(first).getByTestId('refund-badge')).toContainText(texts.waitingToSend);
  await reject(first);
  const refusedLater = refundAnswer(page, 409);
  await page.context().setOffline(false);
  await refusedLater;

  // The panel lists both, oldest first: the online one, then the offline one. Both failed, with the server's words.
  await page.getByRole('button', { name: /^Outbox: 2 waiting to send$/ }).click();
  const items = page.getByRole('list', { name: 'Outbox' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  for (const i of [0, 1]) {
    await expect(items.nth(i).getByText('Failed', { exact: true })).toBeVisible();
    await expect(items.nth(i).getByText(notRefundable)).toBeVisible();
  }
  await shot(page, 'outbox-panel-failed');
  const toEdit = items.nth(1);
  const toDiscard = items.nth(0);

  // Retry sends the same refund again (a new key): the server refuses again, and the panel says so.
  const retried = refundAnswer(page, 409);
  await toEdit.getByRole('button', { name: 'Retry' }).click();
  await retried;
  await expect(toEdit.getByText('Failed', { exact: true })).toBeVisible();
  await expect(toEdit.getByText(notRefundable)).toBeVisible();

  // Edit: point the refund at the request that can still be refunded, with a new reason; it is sent once.
  await toEdit.getByRole('button', { name: 'Edit' }).click();
  await toEdit.getByLabel('processId', { exact: true }).fill(third);
  await toEdit.getByLabel('reason', { exact: true }).fill(editedReason);
  const accepted = refundAnswer(page, 201);
  await toEdit.getByRole('button', { name: 'Save and send' }).click();
  const sent = await accepted;
  expect(sent.request().postDataJSON()).toEqual({ refundRequest: { tool: 'TRACK_MASTER', processId: third, refundRequestType: 'PARTIAL', reason: editedReason } });
  await expect(items).toHaveCount(1);
  // The optimistic row gave way to the server's: on the third request now, sent, with the new reason.
  await expect(row(third).getByTestId('refund-badge')).toHaveAttribute('data-refund-status', 'requested');
  await expect(row(third).getByTestId('refund-badge')).toHaveAttribute('data-pending', 'false');
  await expect(row(first).getByTestId('refund-badge')).toHaveCount(0);

  // Discard the other failed refund: its optimistic row goes, and the outbox is empty.
  await expect(row(second).getByTestId('refund-badge')).toHaveCount(1);
  await toDiscard.getByRole('button', { name: 'Discard' }).click();
  await expect(items).toHaveCount(0);
  await expect(page.getByText('Everything has been sent.')).toBeVisible();
  await expect(row(second).getByTestId('refund-badge')).toHaveCount(0);
  await page.getByRole('button', { name: 'Close', exact: true }).click();

  await row(third).getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Request Details' }).click();
  const section = page.getByTestId('refund-section');
  await expect(section).toHaveCount(1);
  await expect(section).toContainText(editedReason);

  // Counted on the server: exactly one refund, the edited one; nothing for the discarded or the first attempt.
  const file = await dataOf<{ refunds: { processId: string; reason: string; status: string }[] }>(
    await request.get(`/api/staff/clients/${uid}`, { headers: bearer(staffToken) }),
  );
  expect(file.refunds.map((r) => [r.processId, r.reason, r.status])).toEqual([[third, editedReason, 'requested']]);
});
