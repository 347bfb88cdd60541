// "Leave quickly" stays above every layer at the bottom left; on a phone the open drawer keeps that corner free of
// its rows (src/app/shell/mobile-drawer.tsx), so a tap on Logout signs out instead of leaving the portal signed in.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ROOT } from '../../scripts/emulator.ts';
import { DEMO, signIn } from './support/fixtures.ts';

// 375 px wide, as tall as a small phone (the drawer scrolls) and as a tall one (it does not).
for (const height of [667, 800]) {
  test(`at 375×${height} a tap at the centre of the drawer's Logout row signs out (it is not under "Leave quickly")`, async ({ browser }) => {
    const context = await browser.newContext({ viewport: { width: 375, height }, hasTouch: true });
    const page = await context.newPage();
    await signIn(page, DEMO.client.email, DEMO.client.password);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('dialog');
    const logout = drawer.getByRole('button', { name: 'Logout', exact: true });
    await expect(logout).toBeVisible();
    // As a person reaches the last row: the drawer scrolled to its end (where it scrolls at all).
    await drawer.evaluate((el) => {
      for (const node of [el, ...el.querySelectorAll('*')]) if (node.scrollHeight > node.clientHeight + 1) node.scrollTop = node.scrollHeight;
    });
    await expect(logout).toBeInViewport({ ratio: 1 });
    const box = (await logout.boundingBox())!;
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    // What a tap there reaches: the Logout row, not the quick exit drawn above the drawer.
    const reached = await page.evaluate(({ x, y }) => {
      const hit = document.elementFromPoint(x, y);
      return { logout: !!hit?.closest('button')?.textContent?.includes('Logout'), quickExit: !!hit?.closest('[data-testid="quick-exit"]') };
    }, centre);
    expect(reached).toEqual({ logout: true, quickExit: false });
    const dir = join(ROOT, 'tests', 'output', 'screenshots');
    mkdirSync(dir, { recursive: true });
    await page.screenshot({ path: join(dir, `leave-quickly-drawer-375x${height}.png`) });

    await page.touchscreen.tap(centre.x, centre.y);
    // Signed out, in the portal: the sign-in page, no session hint, no device copy; not the neutral site.
    await expect(page).toHaveURL(/\/login$/);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('portal:maybe-signed-in'))).toBeNull();
    await expect.poll(() => page.evaluate(async () => (await indexedDB.databases()).some((d) => (d.name ?? '').startsWith('portal-')))).toBe(false);
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/);
    await context.close();
  });
}

test('at 375 px a dialog ends above "Leave quickly": its footer and body never lie under it', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 667 }, hasTouch: true });
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByRole('button', { name: 'Reset Your Password' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  const quickExit = (await page.getByTestId('quick-exit').boundingBox())!;
  // The parts of the frame that hold controls: the body (scrolls) and the footer (its buttons).
  const parts = await dialog.evaluate((el) =>
    [...el.querySelectorAll('.chakra-dialog__body, .chakra-dialog__footer')].map((part) => {
      const r = part.getBoundingClientRect();
      return { part: part.className, top: r.top, bottom: r.bottom, left: r.left, right: r.right };
    }),
  );
  expect(parts.length).toBeGreaterThanOrEqual(2);
  for (const part of parts) {
    const overlaps = part.left < quickExit.x + quickExit.width && quickExit.x < part.right && part.top < quickExit.y + quickExit.height && quickExit.y < part.bottom;
    expect(overlaps, `${part.part} reaches under "Leave quickly"`).toBe(false);
  }
  await context.close();
});
