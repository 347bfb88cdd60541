// Issue 15 item 9: the case file is built on the device from its replica, so it downloads offline; its text
// names the requests and the SHA-256 of an uploaded file, computed here from the bytes sent.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { requestRef } from '../../domain/tools.ts';
import { bearer, clientWithPaidRequest, dataOf, idToken, shotBoth, signIn } from './support/fixtures.ts';
import { waitForServiceWorker } from './support/offline.ts';
import { pdfText } from './support/pdf-text.ts';

const PASSWORD = 'Secret#2026';

test('the case file downloads offline with the request references and the SHA-256 of an uploaded file', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  const email = `case-file-${Date.now()}@e2e.test`;
  const { requestId } = await clientWithPaidRequest(request, email, PASSWORD);
  const token = await idToken(email, PASSWORD);
  const evidence = Buffer.from(`Bank statement ${Date.now()}: transfer of 2,000 to the scammer's account.\n`);
  const sha256 = createHash('sha256').update(evidence).digest('hex');
  await dataOf(await request.post('/api/user/files', { headers: bearer(token), multipart: { files: { name: 'statement.txt', mimeType: 'text/plain', buffer: evidence } } }));
  const feed = await dataOf<{ requests: { id: string; productRequestType: string; refNo: number | null }[] }>(await request.get('/api/sync?cursor=0', { headers: bearer(token) }));
  const ref = requestRef(feed.requests.find((r) => r.id === requestId)!);

  await signIn(page, email, PASSWORD);
  await waitForServiceWorker(page);
  // The replica has the file (the Files page reads it from there) before the network goes.
  await page.goto('/files');
  await expect(page.getByText('statement.txt')).toBeVisible({ timeout: 20_000 });
  await page.getByRole('link', { name: 'Case file' }).first().click();
  await expect(page.getByRole('heading', { name: 'Case file' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Where to report' })).toBeVisible();
  await shotBoth(page, 'case-file-page', { noSidewaysScroll: true });

  await context.setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: 'Offline' })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download my case file' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^case-file-\d{4}-\d{2}-\d{2}\.pdf$/);
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(pdf);
  expect(text).toContain(`SHA-256 ${sha256}`);
  expect(text).toContain(requestId);
  expect(ref).toMatch(/^TM-\d+$/);
  expect(text).toContain(`${ref} (id ${requestId})`);
  expect(text).toContain('statement.txt');
  expect(text).toContain('Payments and invoices (1)');
  await context.setOffline(false);
});
