// /login's first paint needs no JavaScript (server/platform/first-paint.ts, public/first-paint-login.html), looks
// like the screen the app then draws, and typing started on it is not lost when the app takes over.
import { expect, test, type Page } from '@playwright/test';
import { DESKTOP, PHONE, shot } from './support/fixtures.ts';

/** Where the sign-in card's parts sit, rounded to the pixel: the static frame and the app's screen must agree. */
async function layout(page: Page) {
  const box = async (locator: ReturnType<Page['locator']>) => {
    const b = await locator.boundingBox();
    if (!b) throw new Error('not on screen');
    return { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) };
  };
  return {
    heading: await box(page.getByRole('heading', { name: 'Sign In' })),
    email: await box(page.getByRole('textbox', { name: 'Email' })),
    password: await box(page.locator('input[name="password"]')),
    button: await box(page.getByRole('button', { name: 'Sign In', exact: true })),
    signUp: await box(page.getByRole('link', { name: 'Sign Up' })),
  };
}

function expectClose(frame: Awaited<ReturnType<typeof layout>>, app: Awaited<ReturnType<typeof layout>>, tolerance: number) {
  for (const key of Object.keys(frame) as (keyof typeof frame)[]) {
    for (const side of ['x', 'y', 'width', 'height'] as const) {
      expect(Math.abs(frame[key][side] - app[key][side]), `${key}.${side}: frame ${frame[key][side]}, app ${app[key][side]}`).toBeLessThanOrEqual(tolerance);
    }
  }
}

/** Holds the app's scripts back until the returned function is called. */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('with JavaScript off, /login shows the sign-in form and says it needs JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: DESKTOP });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Email' })).toBeVisible();
  await expect(page.getByLabel('Password')).toBeVisible();
  // Disabled: without the app a click would do nothing (and with it, before the app takes over, would be lost).
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeDisabled();
  // Playwright's text search skips <noscript>; the layout tests below show the line takes its row.
  expect(await page.locator('[data-first-paint] noscript').textContent()).toBe('Signing in needs JavaScript.');
  await expect(page.getByRole('link', { name: 'Leave quickly' })).toHaveAttribute('href', /weather/);
  await shot(page, 'first-paint-login-no-js-1280');
  await page.setViewportSize(PHONE);
  await shot(page, 'first-paint-login-no-js-375');
  // Another page has no first paint of its own: the splash.
  await page.goto('/tool/track-master');
  await expect(page.getByRole('status', { name: 'Loading' })).toBeVisible();
  await context.close();
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`at ${viewport.width}px the app draws the sign-in card where the first paint had it`, async ({ browser }) => {
    const noJs = await browser.newContext({ javaScriptEnabled: false, viewport });
    const framePage = await noJs.newPage();
    await framePage.goto('/login');
    const frame = await layout(framePage);
    await noJs.close();

    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto('/login');
    await expect(page.locator('[data-first-paint]')).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Reset Your Password' })).toBeVisible();
    // The web font may arrive between the two: a pixel or two of text width is allowed, no more.
    expectClose(frame, await layout(page), 2);
    await context.close();
  });
}

test('what is typed on the first paint is still there when the app takes over, with the cursor in the same field', async ({ browser }) => {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  // A slow connection: the scripts arrive a while after the page.
  const release = await holdScripts(page);
  // Not 'domcontentloaded': that waits for the module scripts, which are held back.
  await page.goto('/login', { waitUntil: 'commit' });
  await expect(page.locator('[data-first-paint]')).toBeVisible();
  await page.getByRole('textbox', { name: 'Email' }).fill('dana@demo.test');
  await page.locator('[data-first-paint] input[name="password"]').fill('typed-early');
  await page.locator('[data-first-paint] input[name="password"]').focus();
  release();
  await expect(page.locator('[data-first-paint]')).toHaveCount(0, { timeout: 20_000 });
  await expect(page.getByRole('textbox', { name: 'Email' })).toHaveValue('dana@demo.test');
  await expect(page.locator('input[name="password"]')).toHaveValue('typed-early');
  await expect(page.locator('input[name="password"]')).toBeFocused();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeEnabled();
  await context.close();
});

test('typing that goes on while the app takes over, on a slow phone, is all kept', async ({ browser }) => {
  const context = await browser.newContext({ viewport: PHONE });
  const page = await context.newPage();
  const release = await holdScripts(page);
  await page.goto('/login', { waitUntil: 'commit' });
  await page.locator('[data-first-paint] input[name="password"]').focus();
  // A phone's CPU: the app's first render takes long enough for keys to land while it runs (main.tsx renders it
  // as a transition, yielding to the browser).
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 20 });
  release();
  let typed = '';
  const type = async () => {
    const key = String.fromCharCode(97 + (typed.length % 26));
    await page.keyboard.press(key);
    typed += key;
  };
  while ((await page.locator('[data-first-paint]').count()) > 0 && typed.length < 2000) for (let i = 0; i < 5; i++) await type();
  for (let i = 0; i < 5; i++) await type();
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  await expect(page.locator('input[name="password"]')).toHaveValue(typed);
  await expect(page.locator('input[name="password"]')).toBeFocused();
  await context.close();
});
