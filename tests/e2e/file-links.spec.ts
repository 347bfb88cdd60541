// A table page of Done rows must not ask for every row's final-file link when it
// mounts (each call is an authenticated request with a token revocation check). The link is asked
// for when a row's menu opens; "not fully paid" comes from the replica, without a call.
import { expect, test, type APIRequestContext, type Request } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { bearer, createEmulatorUser, dataOf, DEMO, idToken, PDF, signIn } from './support/fixtures.ts';

const ROWS = 50; // one full table page (PAGE_SIZE)
const DONE_PAID = 20;
const DONE_UNPAID = 5;
const PRICE = 300;

const FILE_LINK = /\/api\/[^/]+\/[^/]+\/file$/;

interface StaffRequest {
  id: string;
  version: number;
}

/** Staff take one request to Done with its final report: priced, paid `paid`, started, delivered, completed. */
async function toDone(request: APIRequestContext, staffToken: string, id: string, paid: number): Promise<void> {
  const headers = bearer(staffToken);
  const base = `/api/staff/requests/${id}`;
  let row = await dataOf<StaffRequest>(
    await request.post(`${base}/transition`, { headers, data: { to: 'Waiting for actions', version: 1, totalAmount: PRICE, contractSigned: true } }),
  );
  ({ request: row } = await dataOf<{ request: StaffRequest }>(
    await request.post(`${base}/payments`, { headers, data: { version: row.version, amount: paid, method: 'WIRE', paidAt: '2026-01-10', reference: `TX-${id}` } }),
  ));
  row = await dataOf<StaffRequest>(await request.post(`${base}/transition`, { headers, data: { to: 'In Progress', version: row.version } }));
  row = await dataOf<StaffRequest>(
    await request.post(`${base}/final-file`, {
      headers,
      multipart: { version: String(row.version), file: { name: 'final-report.pdf', mimeType: 'application/pdf', buffer: PDF } },
    }),
  );
  await dataOf(await request.post(`${base}/transition`, { headers, data: { to: 'Done', version: row.version } }));
}

test('a table page of 50 requests asks for no file link on load, and for one when a Done row is downloaded', async ({ page, request }) => {
  test.setTimeout(120_000);
  // A fresh approved client with 50 Track Master requests, made through the API.
  const email = `file-links-${Date.now()}@e2e.test`;
  const password = 'Victim#2026';
  const { idToken: clientToken, uid } = await createEmulatorUser(email, password);
  await dataOf(await request.get('/api/user', { headers: bearer(clientToken) }));
  const staffToken = await idToken(DEMO.staff.email, DEMO.staff.password);
  const profile = await dataOf<{ client: { version: number } }>(await request.get(`/api/staff/clients/${uid}`, { headers: bearer(staffToken) }));
  await dataOf(await request.post(`/api/staff/clients/${uid}/approval`, { headers: bearer(staffToken), data: { version: profile.client.version } }));

  const order = (i: number) => ({ fraudType: 'romance', fraudUrl: `https://hearts-${i}.example`, communicationChannel: 'WhatsApp', notes: `Order ${i}` });
  const ids = await Promise.all(
    Array.from({ length: ROWS }, async (_, i) =>
      (await dataOf<{ id: string }>(await request.post('/api/trackMasterProcess', { headers: bearer(clientToken), data: { trackMasterProcess: order(i) } }))).id,
    ),
  );
  const paidIds = ids.slice(0, DONE_PAID);
  const unpaidIds = ids.slice(DONE_PAID, DONE_PAID + DONE_UNPAID);
  await Promise.all([...paidIds.map((id) => toDone(request, staffToken, id, PRICE)), ...unpaidIds.map((id) => toDone(request, staffToken, id, PRICE / 3))]);

  // Every call to the file-link endpoint the page makes, from sign-in on.
  const fileLinkCalls: Request[] = [];
  page.on('request', (r) => {
    if (FILE_LINK.test(new URL(r.url()).pathname)) fileLinkCalls.push(r);
  });

  await signIn(page, email, password);
  await page.goto('/tool/track-master');
  const table = page.getByRole('table', { name: 'Track Master', exact: true });
  await expect(table.locator('tbody tr')).toHaveCount(ROWS, { timeout: 30_000 });
  await expect(table.locator('tbody tr[data-status="Done"]')).toHaveCount(DONE_PAID + DONE_UNPAID, { timeout: 30_000 });
  // Let the page settle: the sync, the live connection, anything a row would start on mount.
  await page.waitForTimeout(2_000);
  expect(fileLinkCalls.map((r) => r.url())).toEqual([]);

  // A Done row not paid in full: refused from the replica, still without a call.
  await table.locator(`tr[data-request-id="${unpaidIds[0]}"]`).getByRole('button', { name: 'Actions' }).click();
  const refused = page.getByRole('menuitem', { name: 'Download File' });
  await expect(refused).toBeDisabled();
  await expect(refused.getByTestId('download-error-icon')).toBeVisible();
  // The tooltip closes on scroll, as it should; Playwright's own scroll to bring the item into view can land just
  // after the pointer reached it (a row near the bottom edge), so the pointer leaves and comes back until it shows.
  await expect(async () => {
    await page.mouse.move(0, 0);
    await refused.hover();
    await expect(page.getByRole('tooltip')).toHaveText(texts.downloadTooltip, { timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press('Escape');
  expect(fileLinkCalls).toHaveLength(0);

  // A Done row paid in full: opening its menu asks for its link once; the download uses that link.
  const paidId = paidIds[7];
  await table.locator(`tr[data-request-id="${paidId}"]`).getByRole('button', { name: 'Actions' }).click();
  const item = page.getByRole('menuitem', { name: 'Download File' });
  await expect(item).toHaveAttribute('href', /\/api\/download\//);
  const saved = page.waitForEvent('download');
  await item.click();
  const file = await saved;
  expect(file.suggestedFilename()).toBe('final-report.pdf');
  expect(await file.failure()).toBeNull();
  // A second link request would follow the download; nothing signals that none is coming, so the check waits a moment.
  await page.waitForTimeout(500);
  expect(fileLinkCalls.map((r) => new URL(r.url()).pathname)).toEqual([`/api/track-master/${paidId}/file`]);
});
