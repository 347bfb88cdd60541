// The staff "To decide" badge (a refund waiting for a decision) was white on #EA580C, 3.56:1: the one colour
// contrast failure axe found on 40 screens. It keeps its orange and passes WCAG AA (4.5:1) now
// (src/features/staff/shared/refunds-list.tsx).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../../scripts/emulator.ts';
import { DEMO, bearer, clientWithPaidRequest, dataOf, idToken, signIn } from './support/fixtures.ts';

const axeSource = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

test('the staff "To decide" badge passes axe\'s colour-contrast rule', async ({ page, request }) => {
  const email = `to-decide-${Date.now()}@e2e.test`;
  const password = 'Client#2026-e2e';
  const { requestId } = await clientWithPaidRequest(request, email, password);
  const clientToken = await idToken(email, password);
  const refundRequest = { tool: 'TRACK_MASTER', processId: requestId, refundRequestType: 'PARTIAL', reason: 'The report came too late.' };
  await dataOf(await request.post('/api/refund', { headers: bearer(clientToken), data: { refundRequest } }));

  await signIn(page, DEMO.staff.email, DEMO.staff.password);
  await page.goto(`/staff/requests/${requestId}`);
  const refund = page.getByTestId('refund');
  const badge = refund.getByText('To decide', { exact: true });
  await expect(badge).toBeVisible();
  // Still orange: the meaning "waiting for a decision" is kept.
  const [r, g, b] = (await badge.evaluate((el) => getComputedStyle(el).backgroundColor)).match(/\d+/g)!.map(Number);
  expect(r).toBeGreaterThan(g);
  expect(g).toBeGreaterThan(b);

  // axe in the page (run through DevTools, so the page's CSP does not apply), its contrast rule over the refund card.
  await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: unknown, options: unknown): Promise<{ violations: { nodes: { html: string }[] }[]; passes: { nodes: { html: string }[] }[] }> } }).axe;
    const outcome = await axe.run({ include: [['[data-testid="refund"]']] }, { runOnly: { type: 'rule', values: ['color-contrast'] } });
    return { violations: outcome.violations.flatMap((v) => v.nodes.map((n) => n.html)), passes: outcome.passes.flatMap((p) => p.nodes.map((n) => n.html)) };
  });
  expect(result.violations).toEqual([]);
  // The badge itself was checked (not skipped), so the pass is about it.
  expect(result.passes.some((html) => html.includes('To decide'))).toBe(true);
});
