// Ordering the five tools and following requests in real Chromium against the
// `npm start` stack, as the seeded demo client (requests of every tool in every status, a Done
// request paid in full with its final file, a Done one partly paid, Track Master visits).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { type ToolDefinition, tools } from '../../domain/tools.ts';
import { DEMO, PDF, PNG, shot, signIn } from './support/fixtures.ts';

const tool = (id: string) => tools.find((t) => t.id === id)! as ToolDefinition;

async function signInClient(page: Page) {
  await signIn(page, DEMO.client.email, DEMO.client.password);
}

/** The table of a page once the replica has the seeded requests (5 per tool). */
async function loadedTable(page: Page, name: string, atLeast: number): Promise<Locator> {
  const table = page.getByRole('table', { name, exact: true });
  await expect.poll(async () => table.locator('tbody tr').count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(atLeast);
  return table;
}

function statusCount(page: Page, key: 'done' | 'inProgress' | 'pending' | 'waitingForActions'): Locator {
  return page.getByTestId(`status-${key}`).getByTestId('status-count');
}

async function openToolPage(page: Page, id: string): Promise<Locator> {
  await page.goto(`/tool/${id}`);
  await expect(page.getByRole('heading', { name: tool(id).header, level: 1 })).toBeVisible({ timeout: 20_000 });
  return loadedTable(page, tool(id).header, 5);
}

/** The action menu button of the first row (newest) with this status in the table. */
function actionsOf(table: Locator, status: string): Locator {
  return table.locator(`tbody tr[data-status="${status}"]`).first().getByRole('button', { name: 'Actions' });
}

/** Nothing sticks out sideways at phone width (the page must not scroll horizontally). */
async function expectNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const wide = [...document.querySelectorAll('body *')]
      .filter((el) => el.getBoundingClientRect().right > width + 1)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${(el.getAttribute('class') ?? '').split(' ')[0]} ${Math.round(el.getBoundingClientRect().right)}`);
    return { scroll: document.documentElement.scrollWidth, width, wide };
  });
  expect(overflow.scroll, JSON.stringify(overflow)).toBeLessThanOrEqual(overflow.width);
}

/**
 * Opens a row's menu and picks an item that opens a popup. Retried because the floating menu can
 * still be settling after the page scrolled the row into view, and a click then lands beside the item.
 */
async function choose(page: Page, actions: Locator, item: string, dialog: string): Promise<Locator> {
  await actions.scrollIntoViewIfNeeded();
  await expect(async () => {
    if (!(await openMenu(page).isVisible())) await actions.click();
    await page.getByRole('menuitem', { name: item, exact: true }).click({ timeout: 2_000 });
    await expect(page.getByRole('dialog', { name: dialog })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 15_000 });
  return page.getByRole('dialog', { name: dialog });
}

/** The open menu: a menu that is closing stays in the page until its exit animation ends. */
const openMenu = (page: Page) => page.locator('[role="menu"][data-state="open"]');

async function menuItems(page: Page): Promise<string[]> {
  const menu = openMenu(page);
  await expect(menu).toBeVisible();
  return (await menu.getByRole('menuitem').allInnerTexts()).map((t) => t.trim());
}

/** Fills one tool's purchase form; returns the values typed, keyed by backendHeader. */
async function fillForm(page: Page, t: ToolDefinition, stamp: string): Promise<Record<string, string>> {
  const dialog = page.getByRole('dialog');
  const typed: Record<string, string> = {};
  for (const field of t.formFields) {
    const input = dialog.getByLabel(field.header, { exact: false });
    switch (field.type) {
      case 'text':
        typed[field.backendHeader] = `${field.backendHeader} ${stamp}`;
        await input.fill(typed[field.backendHeader]);
        break;
      case 'bigtext':
        typed[field.backendHeader] = `The scammer wrote from +44 7700 900123 (${stamp}).`;
        await input.fill(typed[field.backendHeader]);
        break;
      case 'number':
        typed[field.backendHeader] = '1500.5';
        await input.fill('1500.5');
        break;
      case 'date':
        // Day first, as the app shows dates (a native date input would follow the browser's mm/dd/yyyy).
        typed[field.backendHeader] = '17/05/2024';
        await input.fill('17/05/2024');
        break;
      case 'select':
        typed[field.backendHeader] = field.options![1];
        await input.selectOption(field.options![1]);
        break;
      case 'file': {
        const png = field.backendHeader !== 'bankStatement';
        await input.setInputFiles(
          png
            ? { name: 'evidence.png', mimeType: 'image/png', buffer: PNG }
            : { name: 'statement.pdf', mimeType: 'application/pdf', buffer: PDF },
        );
        break;
      }
    }
  }
  return typed;
}

test.describe('ordering', () => {
  // Each order counts what it adds, so the five may run on either worker's stack; the file being the last of the
  // run, they would otherwise keep one worker busy while the other waits.
  test.describe.configure({ mode: 'parallel' });
  for (const t of tools) {
    test(`orders ${t.header} and sees it Pending in the tool table and on the dashboard`, async ({ page }) => {
      test.setTimeout(90_000);
      await signInClient(page);
      await page.goto('/');
      await loadedTable(page, 'Tools requests', 25);
      // The seeded client always has Pending requests: a 0 is the count before the replica's first read.
      await expect(statusCount(page, 'pending')).not.toHaveText('0');
      const pendingBefore = Number(await statusCount(page, 'pending').innerText());

      const table = await openToolPage(page, t.id);
      const pendingRowsBefore = await table.locator('tbody tr[data-status="Pending"]').count();
      await page.getByRole('button', { name: 'New Request' }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('heading', { name: `New ${t.header} Request` })).toBeVisible();

      // Nothing goes further while required fields are empty.
      await dialog.getByRole('button', { name: 'Continue' }).click();
      const firstRequired = t.formFields.find((f) => f.type !== 'date' && f.type !== 'file')!;
      await expect(dialog.getByText(`${firstRequired.header} is required`)).toBeVisible();

      const stamp = `${t.id}-${Date.now()}`;
      const typed = await fillForm(page, t, stamp);
      await dialog.getByRole('button', { name: 'Continue' }).click();

      // Terms: Submit request waits for the agree box; Go back keeps what was typed.
      const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
      await expect(terms.getByText('at least 21 years old')).toBeVisible();
      await expect(terms.getByText(/Tel Aviv/)).toBeVisible();
      await expect(terms.getByRole('button', { name: 'Submit request' })).toBeDisabled();
      await terms.getByRole('button', { name: 'Go back' }).click();
      const form = page.getByRole('dialog');
      for (const field of t.formFields) {
        if (field.type === 'file') await expect(form.getByTestId('selected-file')).toBeVisible();
        else await expect(form.getByLabel(field.header, { exact: false })).toHaveValue(typed[field.backendHeader]);
      }
      await form.getByRole('button', { name: 'Continue' }).click();
      await terms.getByText('I have read and agree').click();
      await expect(terms.getByRole('button', { name: 'Submit request' })).toBeEnabled();

      const posted = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/api/${t.hrefBackend}`));
      const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/api/${t.hrefBackend}`));
      await terms.getByRole('button', { name: 'Submit request' }).click();
      await expect(page.getByText(texts.requestSubmitted)).toBeVisible();

      const request = await posted;
      if (t.isFormData) {
        // The body (FormData with the file) is not visible to Playwright; the 201 below shows it was accepted.
        expect(request.headers()['content-type']).toContain('multipart/form-data');
      } else {
        const body = request.postDataJSON()[t.hrefBackend] as Record<string, unknown>;
        for (const field of t.formFields) {
          if (field.type === 'number') expect(body[field.backendHeader]).toBe(1500.5);
          if (field.type === 'date') expect(body[field.backendHeader]).toBe(new Date(2024, 4, 17).getTime());
          if (field.type === 'text') expect(body[field.backendHeader]).toBe(typed[field.backendHeader]);
        }
      }
      expect((await answered).status()).toBe(201);

      // Back to the dashboard after 3 s (4 s with files), with one more Pending request.
      await expect(page).toHaveURL(/\/$/, { timeout: 8_000 });
      await expect(statusCount(page, 'pending')).toHaveText(String(pendingBefore + 1), { timeout: 15_000 });
      await expect(page.getByRole('table', { name: 'Tools requests' }).locator('tbody tr').first()).toHaveAttribute('data-status', 'Pending');

      const after = await openToolPage(page, t.id);
      await expect(after.locator('tbody tr[data-status="Pending"]')).toHaveCount(pendingRowsBefore + 1);
      const newest = after.locator('tbody tr').first();
      await expect(newest.getByText('Pending', { exact: true })).toBeVisible();
      await expect(newest.getByText(texts.waitingToSend)).toHaveCount(0, { timeout: 15_000 });
      // Its details are the ones typed, with the key prefix stripped.
      const details = await choose(page, newest.getByRole('button', { name: 'Actions' }), 'Request Details', 'Request Details');
      const textField = t.formFields.find((f) => f.type === 'text')!;
      await expect(details.getByText(typed[textField.backendHeader], { exact: true })).toBeVisible();
      await expect(details.getByText(texts.awaitingDefinition).first()).toBeVisible();
      await expect(details.getByText(`${t.ToolNameBackend}_`)).toHaveCount(0);
    });
  }
});

test('offline, an order is kept on the device, badged Waiting to send, and sent when back online', async ({ page, context }) => {
  test.setTimeout(90_000);
  await signInClient(page);
  await openToolPage(page, 'track-master');
  // As an installed app: the service worker holds the app shell (it controls pages from the next load).
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await page.reload();
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await loadedTable(page, 'Track Master', 5);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'New Request' }).click();
  const t = tool('track-master');
  await fillForm(page, t, `offline-${Date.now()}`);
  await shot(page, 'tools-purchase-form-1280');
  await page.getByRole('dialog').getByRole('button', { name: 'Continue' }).click();
  const terms = page.getByRole('dialog', { name: 'Terms and Conditions' });
  await terms.getByText('I have read and agree').click();
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: 'tests/output/screenshots/tools-terms-375.png' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await terms.getByRole('button', { name: 'Submit request' }).click();
  await expect(page.getByText(texts.sentWhenOnline)).toBeVisible();
  await expect(page).toHaveURL(/\/$/, { timeout: 8_000 });
  const first = page.getByRole('table', { name: 'Tools requests' }).locator('tbody tr').first();
  await expect(first.getByText(texts.waitingToSend)).toBeVisible();
  await expect(first.getByRole('button', { name: 'Actions' })).toBeDisabled();
  await context.setOffline(false);
  await expect(first.getByText(texts.waitingToSend)).toHaveCount(0, { timeout: 30_000 });
  await expect(first.getByRole('button', { name: 'Actions' })).toBeEnabled();
});

test.describe('row actions', () => {
  test('the action menu offers what each status allows', async ({ page }) => {
    await signInClient(page);
    const table = await openToolPage(page, 'track-master');

    await expect(actionsOf(table, 'Rejected')).toBeDisabled();

    await actionsOf(table, 'In Progress').click();
    expect(await menuItems(page)).toEqual(['Request Details', 'Refund', 'Live Details']);
    await page.keyboard.press('Escape');

    await actionsOf(table, 'Done').click();
    expect(await menuItems(page)).toEqual(['Request Details', 'Refund Request', 'Download File', 'Live Details']);
    await page.keyboard.press('Escape');

    await expect(table.locator('tbody tr[data-status="Waiting for actions"]').first().getByText('Awaiting Payment')).toBeVisible();
    await actionsOf(table, 'Waiting for actions').click();
    expect(await menuItems(page)).toEqual(['Request Details', 'Live Details']);
    await page.keyboard.press('Escape');

    await actionsOf(table, 'Pending').click();
    expect(await menuItems(page)).toEqual(['Request Details', 'Live Details']);
    await page.keyboard.press('Escape');

    // Other tools have no Live Details.
    const bank = await openToolPage(page, 'bank-dispute');
    await actionsOf(bank, 'Done').click();
    expect(await menuItems(page)).toEqual(['Request Details', 'Refund Request', 'Download File']);
    await page.keyboard.press('Escape');
    await actionsOf(bank, 'In Progress').click();
    expect(await menuItems(page)).toEqual(['Request Details', 'Refund']);
    await page.keyboard.press('Escape');

    // Request Details: prefix stripped, money formatted.
    const details = await choose(page, actionsOf(bank, 'Done'), 'Request Details', 'Request Details');
    await expect(details.getByText('Transactions Bank Used')).toBeVisible();
    await expect(details.getByText('BANK_DISPUTE_')).toHaveCount(0);
    await expect(details.getByText(/^\$[\d,]+\.\d{2}$/).first()).toBeVisible();
  });

  test('a refund is requested with a reason and a type', async ({ page }) => {
    await signInClient(page);
    const table = await openToolPage(page, 'web-intelligence');
    const dialog = await choose(page, actionsOf(table, 'In Progress'), 'Refund', 'Request Refund');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(dialog.getByText('Reason is required')).toBeVisible();
    await expect(dialog.getByText('Refund type is required')).toBeVisible();
    await dialog.getByLabel('Reason').fill('The analysis found nothing I did not already know.');
    await dialog.getByText('Partial refund').click();
    const answered = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/refund'));
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect(page.getByText(texts.refundSent)).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const res = await answered;
    expect(res.status()).toBe(201);
    expect(res.request().postDataJSON().refundRequest).toMatchObject({ tool: 'WEB_INTELLIGENCE', refundRequestType: 'PARTIAL' });
  });

  test('the final file is refused while unpaid and downloads once paid in full', async ({ page }) => {
    await signInClient(page);
    // Bank Dispute's Done request is only partly paid.
    const bank = await openToolPage(page, 'bank-dispute');
    await actionsOf(bank, 'Done').click();
    const refused = page.getByRole('menuitem', { name: 'Download File' });
    await expect(refused).toBeDisabled();
    await expect(refused.getByTestId('download-error-icon')).toBeVisible();
    await refused.hover();
    await expect(page.getByRole('tooltip')).toHaveText(texts.downloadTooltip);
    await page.keyboard.press('Escape');

    // Track Master's Done request is paid in full and has its report.
    const track = await openToolPage(page, 'track-master');
    await actionsOf(track, 'Done').click();
    const item = page.getByRole('menuitem', { name: 'Download File' });
    await expect(item).toBeEnabled();
    await expect(item).toHaveAttribute('href', /\/api\/download\//);
    const href = (await item.getAttribute('href'))!;
    const download = page.waitForEvent('download');
    await item.click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('Track Master final report.pdf');
    expect(await file.failure()).toBeNull();
    // The signed link itself answers 200 with the PDF.
    const res = await page.request.get(href);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toContain('application/pdf');
  });

  test('Live Details: placeholders before payment in full, the visits after', async ({ page }) => {
    await signInClient(page);
    const track = await openToolPage(page, 'track-master');

    // In Progress, partly paid: placeholder rows and the unpaid text, nothing of the visits.
    let dialog = await choose(page, actionsOf(track, 'In Progress'), 'Live Details', 'Live Details');
    await expect(dialog.getByText(texts.liveDetailsUnpaid)).toBeVisible();
    await expect.poll(() => dialog.getByTestId('live-placeholder-row').count()).toBeGreaterThanOrEqual(3);
    await expect(dialog.getByRole('table')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Done, paid in full: six people's visits (every one located, so six map links) and one WhatsApp
    // link preview shown apart. The seeded visits went through the capture code and the shipped IP data.
    dialog = await choose(page, actionsOf(track, 'Done'), 'Live Details', 'Live Details');
    const visits = dialog.getByRole('table', { name: 'Visits' });
    await expect(visits.locator('tbody tr')).toHaveCount(6);
    await expect(visits.getByText('185.220.101.34')).toBeVisible();
    const maps = visits.getByRole('link', { name: /^Map of / });
    await expect(maps).toHaveCount(6);
    await expect(maps.first()).toHaveAttribute('target', '_blank');
    await expect(visits.getByRole('link', { name: 'Map of 185.220.101.34' })).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=52\.61\d*,13\.12\d*$/);
    await expect(dialog.getByTestId('link-previews')).toContainText('WhatsApp');
    await expect(dialog.getByTestId('tracking-link')).toContainText('Payment receipt');
    await shot(page, 'tools-live-details');

    await visits.locator('tbody tr', { hasText: '102.89.34.17' }).getByRole('button', { name: 'IP Details' }).click();
    const ip = page.getByRole('dialog', { name: 'IP Details' });
    // In words, not the lookup's field names.
    await expect(ip.getByRole('region', { name: 'Location' }).getByText('Country', { exact: true })).toBeVisible();
    await expect(ip.getByText('country_name')).toHaveCount(0);
    await expect(ip.getByText('Lagos').first()).toBeVisible();
  });
});

test.describe('dashboard and lead', () => {
  test('dashboard: counts, carousel bounds, refresh and screenshots', async ({ page }) => {
    await signInClient(page);
    await page.goto('/');
    await loadedTable(page, 'Tools requests', 25);
    await expect(page.getByText(/Welcome back, /)).toBeVisible();
    for (const key of ['done', 'inProgress', 'pending', 'waitingForActions'] as const) {
      await expect(statusCount(page, key)).toHaveText(/^\d+$/);
    }
    const prev = page.getByRole('button', { name: 'Previous tool' });
    const next = page.getByRole('button', { name: 'Next tool' });
    await expect(prev).toBeDisabled();
    await expect(next).toBeEnabled();
    while (await next.isEnabled()) await next.click();
    await expect(page.getByRole('link', { name: 'Learn more about Exchange Dispute' })).toBeVisible();
    await expect(prev).toBeEnabled();
    while (await prev.isEnabled()) await prev.click();

    const pulled = page.waitForResponse((r) => r.url().includes('/api/sync'));
    await page.getByRole('button', { name: 'Refresh requests' }).click();
    expect((await pulled).status()).toBe(200);
    await shot(page, 'tools-dashboard-1280');

    await page.getByRole('link', { name: 'Learn more about Track Master' }).click();
    await expect(page).toHaveURL(/\/tool\/track-master$/);
    expect(await page.evaluate(() => (history.state as { toolId?: string }).toolId)).toBe('track-master');
    await loadedTable(page, 'Track Master', 5);
    // No video is configured: the three steps, and no frame at all.
    await expect(page.getByRole('region', { name: 'How Track Master works' }).getByRole('listitem')).toHaveCount(3);
    await expect(page.locator('iframe')).toHaveCount(0);
    await shot(page, 'tools-tool-page-1280');

    await page.setViewportSize({ width: 375, height: 800 });
    await expect(page.getByRole('columnheader', { name: 'Order Date' })).toHaveCount(0);
    await shot(page, 'tools-tool-page-375');
    await expectNoSidewaysScroll(page);
    await page.goto('/');
    await loadedTable(page, 'Tools requests', 25);
    await expect(page.getByRole('columnheader', { name: 'Order Date' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: /^Learn more about/ })).toHaveCount(1);
    await shot(page, 'tools-dashboard-375');
    await expectNoSidewaysScroll(page);
  });

  test('offline, the tool page still explains the tool in three steps', async ({ page, context }) => {
    await signInClient(page);
    await openToolPage(page, 'bank-dispute');
    await context.setOffline(true);
    const steps = page.getByRole('region', { name: 'How Bank Dispute works' }).getByRole('listitem');
    await expect(steps).toHaveCount(3);
    await expect(steps.first()).toContainText('Tell us what you lost');
    await context.setOffline(false);
    await expect(page.locator('iframe')).toHaveCount(0);
  });

  test('a lead sees Waiting for Approval and has no way to order', async ({ page }) => {
    await signIn(page, DEMO.lead.email, DEMO.lead.password);
    await page.goto('/tool/track-master');
    await expect(page.getByRole('heading', { name: 'Track Master', level: 1 })).toBeVisible({ timeout: 20_000 });
    await expect(page.getByRole('button', { name: 'Waiting for Approval' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'New Request' })).toHaveCount(0);
    await expect(page.getByText(texts.noToolRequests)).toBeVisible();
  });
});
