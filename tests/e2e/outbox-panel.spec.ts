// Retry, Edit and Discard from the outbox panel, and honest feedback, against the
// `npm start` stack. The 4xx come from the server's own rules, which the UI cannot check beforehand: a refund
// asked for while the request looked In Progress on the device, but that staff rejected meanwhile
// (409 NOT_REFUNDABLE), and a refund queued offline while another one, asked from another device, waited for a
// decision (409 REFUND_PENDING). Edit reopens the refund dialog itself, prefilled. Counted on the server at the
// end: the other device's refund and the edited one; nothing for the discarded command or the refused attempts.
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { bearer, createEmulatorUser, dataOf, DEMO, idToken, shot, signIn } from './support/fixtures.ts';

/** What the server answers a refund of a request staff rejected (server/services/refunds.ts, checkRefundable). */
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
  return { uid, ids, clientToken, staffToken, reject };
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

test('a refused command: Retry still fails, Edit reopens the refund dialog and sends the fix once, Discard undoes the other', async ({ page, request }) => {
  test.setTimeout(240_000);
  const email = `outbox-panel-${Date.now()}@e2e.test`;
  const password = 'Victim#2026';
  const { uid, ids, clientToken, staffToken, reject } = await clientWithRequestsInProgress(request, email, password, 2);
  const [first, second] = ids;
  const firstReason = 'First try, refused once back online.';
  const editedReason = 'Edited in the outbox, now that the other refund is decided.';
  const staff = { headers: bearer(staffToken) };

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

  // Offline: saved on the device at once. Meanwhile the client asks for a refund of the same request from another device.
  await page.context().setOffline(true);
  const offline = await fillRefund(page, first, firstReason);
  await offline.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText(texts.sentWhenOnline).first()).toBeVisible();
  await expect(offline).toHaveCount(0);
  await expect(row(first).getByTestId('refund-badge')).toContainText(texts.waitingToSend);
  const otherReason = 'Asked from my phone.';
  const other = await dataOf<{ id: string }>(
    await request.post('/api/refund', { headers: bearer(clientToken), data: { refundRequest: { tool: 'TRACK_MASTER', processId: first, refundRequestType: 'FULL', reason: otherReason } } }),
  );
  const refusedLater = refundAnswer(page, 409);
  await page.context().setOffline(false);
  await refusedLater;

  // The panel lists both, oldest first: the online one, then the offline one. Both failed, with the server's words.
  await page.getByRole('button', { name: /^Outbox: 2 waiting to send$/ }).click();
  const items = page.getByRole('list', { name: 'Outbox' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  const toDiscard = items.nth(0);
  const toEdit = items.nth(1);
  for (const [item, words] of [[toDiscard, notRefundable], [toEdit, texts.refundPending]] as const) {
    await expect(item.getByText('Failed', { exact: true })).toBeVisible();
    await expect(item.getByText(words)).toBeVisible();
  }
  await shot(page, 'outbox-panel-failed');

  // Retry sends the same refund again (a new key): the other refund still waits, so the server refuses again.
  const retried = refundAnswer(page, 409);
  await toEdit.getByRole('button', { name: 'Retry' }).click();
  await retried;
  await expect(toEdit.getByText('Failed', { exact: true })).toBeVisible();
  await expect(toEdit.getByText(texts.refundPending)).toBeVisible();

  // Staff decline the other device's refund: this one may now be asked for.
  const file = () => request.get(`/api/staff/clients/${uid}`, staff);
  const { refunds } = await dataOf<{ refunds: { id: string; version: number }[] }>(await file());
  const version = refunds.find((r) => r.id === other.id)!.version;
  await dataOf(await request.post(`/api/staff/refunds/${other.id}/decision`, { ...staff, data: { decision: 'decline', version, note: 'Asked twice.' } }));

  // Edit opens the refund dialog itself, prefilled with what was queued; the reason is checked as in the dialog.
  await toEdit.getByRole('button', { name: 'Edit' }).click();
  const editor = page.getByRole('dialog', { name: 'Request Refund' });
  await expect(editor.getByLabel('Reason')).toHaveValue(firstReason);
  await expect(editor.locator('input[type=radio][value=PARTIAL]')).toBeChecked();
  await shot(page, 'outbox-panel-edit');
  await editor.getByLabel('Reason').fill('   ');
  await editor.getByRole('button', { name: 'Save and send' }).click();
  await expect(editor.getByText('Reason is required')).toBeVisible();
  await editor.getByLabel('Reason').fill(editedReason);
  await editor.getByText('Full refund').click();
  const accepted = refundAnswer(page, 201);
  await editor.getByRole('button', { name: 'Save and send' }).click();
  const sent = await accepted;
  expect(sent.request().postDataJSON()).toEqual({ refundRequest: { tool: 'TRACK_MASTER', processId: first, refundRequestType: 'FULL', reason: editedReason } });
  await expect(editor).toHaveCount(0);
  await expect(items).toHaveCount(1);
  // The optimistic row gave way to the server's: sent, with the new reason.
  await expect(row(first).getByTestId('refund-badge')).toHaveAttribute('data-refund-status', 'requested');
  await expect(row(first).getByTestId('refund-badge')).toHaveAttribute('data-pending', 'false');

  // Discard the other failed refund: its optimistic row goes, and the outbox is empty.
  await expect(row(second).getByTestId('refund-badge')).toHaveCount(1);
  await toDiscard.getByRole('button', { name: 'Discard' }).click();
  await expect(items).toHaveCount(0);
  await expect(page.getByText('Everything has been sent.')).toBeVisible();
  await expect(row(second).getByTestId('refund-badge')).toHaveCount(0);
  await page.getByRole('button', { name: 'Close', exact: true }).click();

  await row(first).getByRole('button', { name: 'Actions' }).click();
  await page.getByRole('menuitem', { name: 'Request Details' }).click();
  const sections = page.getByTestId('refund-section');
  await expect(sections).toHaveCount(2);
  await expect(sections.filter({ hasText: editedReason })).toHaveCount(1);
  await expect(sections.filter({ hasText: firstReason })).toHaveCount(0);

  // Counted on the server: the other device's refund (declined) and the edited one; nothing for the discarded command.
  const after = await dataOf<{ refunds: { processId: string; reason: string; status: string }[] }>(await file());
  expect(after.refunds.map((r) => [r.processId, r.reason, r.status]).sort()).toEqual(
    [
      [first, editedReason, 'requested'],
      [first, otherReason, 'declined'],
    ].sort(),
  );
});
