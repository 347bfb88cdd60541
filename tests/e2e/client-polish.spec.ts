// Issue 15 item 8's remainders: dates typed DD/MM/YYYY and stored as the right timestamp.
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

for (const viewport of [DESKTOP, PHONE]) {
  test(`a purchase's date is typed DD/MM/YYYY and stored as that day (${viewport.width} px)`, async ({ page }) => {
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
    await terms.getByRole('button', { name: 'Submit request' }).click();
    const body = (await posted).postDataJSON()[blockchain.hrefBackend] as Record<string, unknown>;
    expect(body.transactionDate).toBe(await page.evaluate(() => new Date(2026, 3, 5).getTime()));
    await expect(page.getByText(texts.requestSubmitted)).toBeVisible();

    await expect(page).toHaveURL(/\/$/, { timeout: 8_000 });
    await viewportShot(page, `polish-after-purchase-${viewport.width}`);

    // The request stored that day: Request Details shows it as 05/04/2026.
    const table = page.getByRole('table', { name: 'Tools requests' });
    await table.locator('tbody tr').first().getByRole('button', { name: 'Actions' }).click();
    await page.getByRole('menuitem', { name: 'Request Details' }).click();
    const details = page.getByRole('dialog', { name: 'Request Details' });
    await expect(details.getByText(`cryptoWallet ${stamp}`)).toBeVisible();
    await expect(details.getByText('05/04/2026')).toBeVisible();
  });
}
