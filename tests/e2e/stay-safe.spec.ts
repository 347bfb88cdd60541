// The Stay safe page, always one click away in the footer, says how the business contacts clients
// and takes payments, lists its official channels (the seeded demo settings), and the "Was this really us?" check
// tells an official address from a lookalike, on the device, offline too.
import { type Page, expect, test } from '@playwright/test';
import { DEMO, shot, shotBoth, signIn } from './support/fixtures.ts';
import { waitForServiceWorker } from './support/offline.ts';

async function check(page: Page, text: string) {
  await page.getByLabel(/Paste the message/).fill(text);
  await page.getByRole('button', { name: 'Check it' }).click();
  return page.getByTestId('check-result');
}

test('Stay safe: the footer link, the official channels, and the check for an official address and a lookalike', async ({ page, context }) => {
  test.setTimeout(90_000);
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await waitForServiceWorker(page);
  await page.getByRole('contentinfo').getByRole('link', { name: 'Stay safe' }).click();
  await expect(page).toHaveURL(/\/stay-safe$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Stay safe' })).toBeVisible();
  await expect(page.getByText('We never ask you to send crypto to a personal wallet.')).toBeVisible();
  await expect(page.getByText('WhatsApp, Telegram')).toBeVisible();
  const channels = page.getByTestId('official-channels');
  await expect(channels).toContainText('support@demo.test');
  await expect(channels).toContainText('demo.test');
  await expect(channels).toContainText('+44 20 7946 0321');

  const official = await check(page, 'support@demo.test');
  await expect(official).toHaveAttribute('data-verdict', 'official');
  await expect(official).toContainText('This matches our official channels');
  await expect(official).toContainText('Official');
  await shotBoth(page, 'stay-safe-official', { noSidewaysScroll: true });

  // Offline too: the check runs on the device against the replica's channels.
  await context.setOffline(true);
  const lookalike = await check(page, 'Good news! Your refund is ready. Pay the release fee by gift card and email claims@dem0.test or WhatsApp +44 7700 900123 today.');
  await expect(lookalike).toHaveAttribute('data-verdict', 'not-us');
  await expect(lookalike).toContainText('This did not come from us');
  await expect(lookalike).toContainText('claims@dem0.test');
  await expect(lookalike.getByText('Not ours')).toHaveCount(2);
  await expect(lookalike).toContainText('We never ask to be paid with gift cards');
  await shotBoth(page, 'stay-safe-lookalike', { noSidewaysScroll: true });

  const subdomainTrick = await check(page, 'https://demo.test.account-check.io/login');
  await expect(subdomainTrick).toHaveAttribute('data-verdict', 'not-us');
  const nothing = await check(page, 'We can get your money back.');
  await expect(nothing).toHaveAttribute('data-verdict', 'nothing-to-check');
  await expect(nothing).toContainText('We found no address or number to check');
  await context.setOffline(false);

  // Listed with the Help pages too.
  await page.goto('/');
  await expect(page.getByRole('navigation').getByRole('link', { name: 'Stay safe' }).first()).toBeVisible();
  await shot(page, 'stay-safe-dashboard-footer-1280');
});
