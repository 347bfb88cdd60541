// The case file is built on the device from its replica, so it downloads offline; its text
// names the requests with their status history, the SHA-256 of a general upload and of a purchase attachment
// (both computed here from the bytes sent), and, once paid in full, a Track Master visit made here.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { requestRef } from '../../domain/tools.ts';
import { baseUrl, bearer, clientWithPaidRequest, dataOf, idToken, shotBoth, signIn } from './support/fixtures.ts';
import { waitForServiceWorker } from './support/offline.ts';
import { pdfText } from './support/pdf-text.ts';

const PASSWORD = 'Secret#2026';
/** Lagos, Nigeria in the shipped GeoLite2 City data (as in tracking.spec.ts). */
const VISITOR_IP = '102.89.34.17';

const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Staff pay the rest of the $450 Track Master request ($300 paid): Live Details then shows the visits. */
async function payInFull(request: APIRequestContext, staffToken: string, requestId: string) {
  const staff = { headers: bearer(staffToken) };
  const file = await dataOf<{ request: { version: number } }>(await request.get(`/api/staff/requests/${requestId}`, staff));
  await dataOf(
    await request.post(`/api/staff/requests/${requestId}/payments`, {
      ...staff,
      data: { amount: 150, method: 'WIRE', paidAt: '2026-11-21', reference: 'E2E-REST', version: file.request.version },
    }),
  );
}

test('the case file downloads offline with the references, status history, SHA-256 of uploads and attachments, and paid Track Master visits', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const email = `case-file-${Date.now()}@e2e.test`;
  const { requestId, staffToken } = await clientWithPaidRequest(request, email, PASSWORD);
  const token = await idToken(email, PASSWORD);
  const evidence = Buffer.from(`Bank statement ${Date.now()}: transfer of 2,000 to the scammer's account.\n`);
  await dataOf(await request.post('/api/user/files', { headers: bearer(token), multipart: { files: { name: 'statement.txt', mimeType: 'text/plain', buffer: evidence } } }));

  // A Bank Dispute ordered with its bank statement attached: the attachment's hash must reach the file too.
  const attachment = Buffer.from(`%PDF-1.4\n% statement ${Date.now()}\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n`);
  const dispute = await dataOf<{ id: string }>(
    await request.post('/api/bankDispute', {
      headers: bearer(token),
      multipart: {
        amountLost: '2000',
        transactionDate: String(Date.UTC(2026, 9, 3)),
        transactionsBankUsed: 'First Bank',
        paymentMethod: 'wire',
        bankStatement: { name: 'bank-statement.pdf', mimeType: 'application/pdf', buffer: attachment },
      },
    }),
  );

  // Staff make a tracking link; the scammer opens it from Lagos; staff record the rest of the price.
  const link = await dataOf<{ slug: string }>(
    await request.post(`/api/staff/requests/${requestId}/tracking-links`, {
      headers: { ...bearer(staffToken), 'Idempotency-Key': crypto.randomUUID() },
      data: { label: 'Receipt for the seller', destination: `${baseUrl()}/login?from=receipt` },
    }),
  );
  const scammer = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': VISITOR_IP } });
  const scammerPage = await scammer.newPage();
  await scammerPage.goto(`${baseUrl()}/t/${link.slug}`);
  await expect(scammerPage).toHaveURL(`${baseUrl()}/login?from=receipt`);
  await scammer.close();
  await payInFull(request, staffToken, requestId);

  const feed = await dataOf<{ requests: { id: string; productRequestType: string; refNo: number | null }[] }>(await request.get('/api/sync?cursor=0', { headers: bearer(token) }));
  const ref = requestRef(feed.requests.find((r) => r.id === requestId)!);
  const disputeRef = requestRef(feed.requests.find((r) => r.id === dispute.id)!);

  await signIn(page, email, PASSWORD);
  await waitForServiceWorker(page);
  // The replica has the file (the Files page reads it from there) before the network goes.
  await page.goto('/files');
  await expect(page.getByText('statement.txt')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('link', { name: 'Case file' }).first().click();
  await expect(page.getByRole('heading', { name: 'Case file' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Where to report' })).toBeVisible();
  // Online, the page brings the Track Master visits onto the device for the file.
  await expect(page.getByTestId('visits-as-of')).toBeVisible({ timeout: 20_000 });
  await shotBoth(page, 'case-file-page', { noSidewaysScroll: true });

  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my case file' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^case-file-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(pdf);
  expect(text).toContain(`SHA-256 ${sha256Of(evidence)}`);
  expect(text).toContain(requestId);
  expect(ref).toMatch(/^TM-\d+$/);
  expect(text).toContain(`${ref} (id ${requestId})`);
  expect(text).toContain('statement.txt');
  expect(text).toContain('Payments and invoices (2)');
  // Status history: the Track Master request went Pending → Awaiting Payment → In Progress.
  expect(text).toMatch(/Status history: Pending \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}; Awaiting Payment \d{2}\/\d{2}\/\d{4} \d{2}:\d{2};\s*In Progress/);
  // The purchase attachment, with its size and the hash computed here.
  expect(text).toContain('bank-statement.pdf');
  expect(text).toContain(`sent with ${disputeRef} (id ${dispute.id})`);
  expect(text).toContain(`SHA-256 ${sha256Of(attachment)}`);
  expect(text).toContain(`, ${attachment.length} bytes, sent with ${disputeRef}`);
  // Paid in full: the visit itself, from Lagos.
  expect(text).toContain('Track Master visits (1 request)');
  expect(text).toMatch(new RegExp(`via "Receipt for the seller": IP ${VISITOR_IP.replaceAll('.', '\\.')}, [^\\n]*Nigeria`));
  await context.setOffline(false);
});
