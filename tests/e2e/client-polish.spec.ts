// Dates typed DD/MM/YYYY and stored as the right timestamp; the message bar that
// confirms an order never sits over the request just ordered.
import { expect, test, type Page } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { tools } from '../../domain/tools.ts';
import { calendarButtonLabel } from '../../src/components/date-entry-input.tsx';
import { DEMO, DESKTOP, PHONE, signIn } from './support/fixtures.ts';
import { join } from 'node:path';

const blockchain = tools.find((t) => t.id === 'blockchain-analysis')!;

/** What the user sees (not the whole page): the bar is fixed to the viewport. */
async function viewportShot(page: Page, name: string) {
  await page.screenshot({ path: join(import.meta.dirname, '..', 'output', 'screenshots', `${name}.png`) });
}

interface Box {
  top: number;
  bottom: number;
  left: number;
  right: number;
}
interface RowAndBar {
  rowId: string | null;
  row: Box;
  /** The confirmation, when it still shows in the frame measured. */
  bar: Box | null;
  quickExit: Box;
  /** Where the sticky top bar ends: a row above that is hidden as well. */
  headerBottom: number;
  viewportHeight: number;
}

/**
 * The first frame on `path` where the request's row is drawn (and, with `withBar`, the confirmation shows too),
 * measured inside the page in one go: the bar is there for 3.5 s only and the app's clock must keep running.
 */
async function measureRow(page: Page, rowSelector: string, path: string, withBar: boolean): Promise<RowAndBar> {
  const handle = await page.waitForFunction(
    ({ rowSelector, path, text, withBar }) => {
      if (location.pathname !== path) return null;
      const row = document.querySelector(rowSelector);
      const bar = [...document.querySelectorAll('[role="status"]')].find(
        (el) => el.textContent?.includes(text) && el.closest('[data-state]')?.getAttribute('data-state') === 'open',
      );
      const quickExit = document.querySelector('[data-testid="quick-exit"]');
      if (!row || !quickExit || (withBar && !bar)) return null;
      const box = (el: Element) => {
        const r = el.getBoundingClientRect();
        return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
      };
      const header = document.querySelector('header');
      return {
        rowId: row.getAttribute('data-request-id'),
        row: box(row),
        bar: bar ? box(bar) : null,
        quickExit: box(quickExit),
        headerBottom: header?.getBoundingClientRect().bottom ?? 0,
        viewportHeight: innerHeight,
      };
    },
    { rowSelector, path, text: texts.requestSubmitted, withBar },
    { polling: 'raf', timeout: 15_000 },
  );
  return (await handle.jsonValue()) as RowAndBar;
}

const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

/** In view: below the top bar, above the bottom of the window, and under neither the message nor "Leave quickly". */
function expectRowInView({ row, bar, quickExit, headerBottom, viewportHeight }: RowAndBar) {
  expect(row.top).toBeGreaterThanOrEqual(headerBottom - 1);
  expect(row.bottom).toBeLessThanOrEqual(viewportHeight);
  expect(overlap(row, quickExit), `row ${JSON.stringify(row)} under Leave quickly ${JSON.stringify(quickExit)}`).toBe(false);
  if (bar) expect(overlap(row, bar), `row ${JSON.stringify(row)} under the message ${JSON.stringify(bar)}`).toBe(false);
}

for (const viewport of [DESKTOP, PHONE]) {
  test(`a purchase's date is typed DD/MM/YYYY and stored as that day; the confirmation leaves the new row in view (${viewport.width} px)`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize(viewport);
    await signIn(page, DEMO.client.email, DEMO.client.password);
    await page.goto(`/tool/${blockchain.id}`);
    await page.getByRole('button', { name: 'New Request' }).click();
    const dialog = page.getByRole('dialog');
    const stamp = `polish-${viewport.width}-${Date.now()}`;
    for (const field of blockchain.formFields) {
      const input = dialog.getByLabel(field.header, { exact: false });
      if (field.type === 'select') await input.selectOption(field.options![0]);
      else if (field.type === 'number') await input.fill('42');
      else if (field.type === 'text') await input.fill(`${field.backendHeader} ${stamp}`);
    }
    const date = dialog.getByLabel('Transaction Date', { exact: false });
    await expect(date).toHaveAttribute('placeholder', 'DD/MM/YYYY');
    await expect(dialog.getByRole('button', { name: calendarButtonLabel })).toBeVisible();
    // A day that does not exist is refused with the format in the message.
    await date.fill('31/02/2026');
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await expect(dialog.getByText('Transaction Date must be a real date written DD/MM/YYYY, for example 17/05/2024')).toBeVisible();
    await date.fill('05/04/2026'); // 5 April, not 4 May
    await viewportShot(page, `polish-date-field-${viewport.width}`);
    await dialog.getByRole('button', { name: 'Continue' }).click();
    const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
    await terms.getByText('I have read and agree').click();
    const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/${blockchain.hrefBackend}`));
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/${blockchain.hrefBackend}`));
    // Watched from before the click: the message lasts 3.5 s and a loaded machine can take that long to answer.
    // The newest row of the tool's table, the moment the message shows (then checked to be the new request).
    const toolTableFirstRow = `table[aria-label="${blockchain.header}"] tbody tr:first-child`;
    const onToolMeasured = measureRow(page, toolTableFirstRow, `/tool/${blockchain.id}`, true);
    await terms.getByRole('button', { name: 'Submit request' }).click();
    const body = (await posted).postDataJSON()[blockchain.hrefBackend] as Record<string, unknown>;
    expect(body.transactionDate).toBe(await page.evaluate(() => new Date(2026, 3, 5).getTime()));
    const { id } = ((await (await answered).json()) as { data: { id: string } }).data;

    // The moment the message shows, the new request's row is in view on the tool page, above the bar, not under it.
    const onTool = await onToolMeasured;
    await viewportShot(page, `polish-message-tool-page-${viewport.width}`);
    expect(onTool.bar).not.toBeNull();
    expectRowInView(onTool);
    // The row measured was the new request (its id is the server's once the answer is in, the device's before).
    if (onTool.rowId !== id) await expect(page.locator(toolTableFirstRow)).toHaveAttribute('data-request-id', id);
    // On the dashboard the bar has half a second left (3 s redirect, 3.5 s message) and may be gone by the time the
    // rows are read from the device: the row is brought into view either way, and clear of the bar while it shows.
    const onDashboard = await measureRow(page, `tr[data-request-id="${id}"]`, '/', false);
    await viewportShot(page, `polish-after-purchase-${viewport.width}`);
    expectRowInView(onDashboard);

    // The request stored that day: Request Details shows it as 05/04/2026.
    const table = page.getByRole('table', { name: 'Tools requests' });
    await table.locator('tbody tr').first().getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Request Details' }).click();
    const details = page.getByRole('dialog', { name: 'Request Details' });
    await expect(details.getByText(`cryptoWallet ${stamp}`)).toBeVisible();
    await expect(details.getByText('05/04/2026')).toBeVisible();
  });
}
