// A first visit (fresh browser, nothing precached, no service worker yet) whose connection drops for 2 s while
// /login loads the parts it loads after the first paint: the sign-in still works with the right password, the page
// is never blank, a failed load never reads as "Wrong email or password", and the service worker ends up registered
// (src/lib/lazy-import.ts, docs/decisions/026-lazy-load-retry.md).
import { expect, test, type Browser, type Page } from '@playwright/test';
import { DEMO, DESKTOP, PHONE, shot, signIn } from './support/fixtures.ts';

const CONNECTION_LOST = 'Connection lost — we will try again';
const WRONG_PASSWORD = 'Wrong email or password, Try again.';

/** How long the connection stays away: the outage being simulated, not a wait for a result. */
const OUTAGE_MS = 2_000;

/**
 * A fresh context whose requests for files matching `patterns` are held until `dropConnection` takes the context
 * offline and fails them as a lost connection does. They are held through DevTools' Fetch domain rather than
 * page.route: page.route turns the HTTP cache off for the page, and the loader under test relies on it (the files
 * it fetched are then imported from the cache); with the cache off, any module request in flight at the drop fails
 * too, a browser no visitor has. No service worker controls a first visit, so every request passes here.
 * Records uncaught errors and whether the wrong-password text ever appeared.
 */
async function firstVisit(browser: Browser, patterns: string[], { blockServiceWorker = false } = {}) {
  const context = await browser.newContext({ viewport: DESKTOP, serviceWorkers: blockServiceWorker ? 'block' : 'allow' });
  const page = await context.newPage();
  const uncaught: string[] = [];
  page.on('pageerror', (err) => uncaught.push(err.message));
  await page.addInitScript((wrong) => {
    const seen = () => {
      if (document.body?.textContent?.includes(wrong)) (window as unknown as { sawWrongPassword: boolean }).sawWrongPassword = true;
    };
    new MutationObserver(seen).observe(document, { subtree: true, childList: true, characterData: true });
  }, WRONG_PASSWORD);
  const cdp = await context.newCDPSession(page);
  const held: string[] = [];
  const heldUrls = new Set<string>();
  let holding = true;
  cdp.on('Fetch.requestPaused', (event) => {
    if (!holding) return void cdp.send('Fetch.continueRequest', { requestId: event.requestId }).catch(() => undefined);
    held.push(event.requestId);
    heldUrls.add(new URL(event.request.url).pathname);
  });
  await cdp.send('Fetch.enable', { patterns: patterns.map((urlPattern) => ({ urlPattern, requestStage: 'Request' as const })) });
  const dropConnection = async () => {
    await context.setOffline(true);
    holding = false;
    for (const requestId of held.splice(0)) await cdp.send('Fetch.failRequest', { requestId, errorReason: 'InternetDisconnected' });
  };
  return { context, page, uncaught, heldUrls, dropConnection };
}

async function expectSignedInWithServiceWorker(page: Page, uncaught: string[]) {
  // Signed in: the dashboard ('/'), and Firebase holds the session.
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 30_000 }).toBe('/');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('portal:maybe-signed-in'))).not.toBeNull();
  expect(await page.evaluate(() => (window as unknown as { sawWrongPassword?: boolean }).sawWrongPassword ?? false)).toBe(false);
  // Registered and installed in the end, although workbox-window (or the worker's install) failed the first time.
  await expect.poll(() => page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.active), { timeout: 30_000 }).toBe(true);
  expect(uncaught).toEqual([]);
}

test("the sign-in screen's own code lost on the way: no blank page, it says so, then the right password signs in", async ({ browser }) => {
  const { context, page, uncaught, heldUrls, dropConnection } = await firstVisit(browser, ['*/assets/login-*.js*']);
  await page.goto('/login');
  // The static first paint draws the card; the screen's code is on its way and held.
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await expect.poll(() => heldUrls.size).toBeGreaterThan(0);
  await dropConnection();
  // Not blank: the card stays and says what happens, in words.
  await expect(page.getByText(CONNECTION_LOST)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible();
  await shot(page, 'flaky-first-visit-login-code-1280');
  await page.setViewportSize(PHONE);
  await shot(page, 'flaky-first-visit-login-code-375');
  await page.setViewportSize(DESKTOP);
  // The outage itself (the scenario's 2 s offline), not a wait for something: nothing to observe ends it.
  await page.waitForTimeout(OUTAGE_MS);
  await context.setOffline(false);
  // The app's own screen replaces the static card by itself once its code arrives (no reload by hand).
  await expect(page.locator('[data-first-paint]')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByText(CONNECTION_LOST)).toHaveCount(0);
  await page.getByLabel('Email', { exact: true }).fill(DEMO.client.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.client.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expectSignedInWithServiceWorker(page, uncaught);
  await context.close();
});

test('the Auth SDK and workbox-window lost on the way: the form says "Connection lost", then signs in with what was typed', async ({ browser }) => {
  const { context, page, uncaught, heldUrls, dropConnection } = await firstVisit(browser, ['*/assets/firebase*.js*', '*/assets/workbox-window*.js*']);
  await page.goto('/login');
  // The app's sign-in screen is up (the static card replaced) while the SDK and workbox-window are still held.
  await expect(page.locator('[data-first-paint]')).toHaveCount(0);
  await expect.poll(() => [...heldUrls].some((u) => u.includes('firebase'))).toBe(true);
  await expect.poll(() => [...heldUrls].some((u) => u.includes('workbox-window'))).toBe(true);
  await page.getByLabel('Email', { exact: true }).fill(DEMO.client.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.client.password);
  await dropConnection();
  const status = page.getByRole('alert').filter({ hasText: CONNECTION_LOST });
  await expect(status).toBeVisible();
  await shot(page, 'flaky-first-visit-auth-sdk-1280');
  await page.setViewportSize(PHONE);
  await shot(page, 'flaky-first-visit-auth-sdk-375');
  await page.setViewportSize(DESKTOP);
  // The outage itself (the scenario's 2 s offline), not a wait for something: nothing to observe ends it.
  await page.waitForTimeout(OUTAGE_MS);
  await context.setOffline(false);
  // Sign In right away: the SDK may still be on its way; the sign-in waits for it rather than fail.
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expectSignedInWithServiceWorker(page, uncaught);
  await context.close();
});

test("a signed-in screen's code lost on the way: the shell stays, says so, and the screen comes by itself", async ({ browser }) => {
  // Service workers blocked: the state of a first visit, where no worker serves the app's files yet.
  const { context, page, uncaught, heldUrls, dropConnection } = await firstVisit(browser, ['*/assets/case-file-*.js*'], { blockServiceWorker: true });
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await page.getByRole('link', { name: 'Case file' }).first().click();
  await expect.poll(() => heldUrls.size).toBeGreaterThan(0);
  await dropConnection();
  await expect(page.getByRole('status').filter({ hasText: CONNECTION_LOST })).toBeVisible();
  // Not blank: the signed-in shell is still there around the screen that is on its way.
  await expect(page.getByRole('button', { name: 'Log out' })).toBeVisible();
  await shot(page, 'flaky-first-visit-screen-code-1280');
  // The outage itself (the scenario's 2 s offline), not a wait for something: nothing to observe ends it.
  await page.waitForTimeout(OUTAGE_MS);
  await context.setOffline(false);
  await expect(page.getByRole('heading', { name: 'Case file' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(CONNECTION_LOST)).toHaveCount(0);
  expect(uncaught).toEqual([]);
  await context.close();
});

test("a module the app's entry imports lost on the way: the splash says so, then the page loads again by itself", async ({ browser }) => {
  // The router chunk is a static import of the entry: once it fails, the browser keeps the failure for the page's life.
  const { context, page, uncaught, heldUrls, dropConnection } = await firstVisit(browser, ['*/assets/router-*.js*'], { blockServiceWorker: true });
  // The page's load event waits for the held module: only its start is awaited.
  await page.goto('/', { waitUntil: 'commit' });
  await expect.poll(() => heldUrls.size).toBeGreaterThan(0);
  await dropConnection();
  // Under the splash's name, inside its Loading status.
  await expect(page.getByRole('status', { name: 'Loading' }).getByText(CONNECTION_LOST)).toBeVisible();
  await shot(page, 'flaky-first-visit-entry-1280');
  // Offline with no service worker, the page waits for the connection rather than reload into the browser's error.
  await expect(page.getByRole('status', { name: 'Loading' })).toBeVisible();
  await context.setOffline(false);
  // The page loads again once the connection is back, and the app takes over from the splash: signed out, it shows
  // its own sign-in screen.
  await expect(page.getByRole('heading', { name: 'Sign In' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('status', { name: 'Loading' })).toHaveCount(0);
  await expect(page.getByText(CONNECTION_LOST)).toHaveCount(0);
  expect(await page.evaluate(() => sessionStorage.getItem('portal:entry-retries'))).toBeNull();
  expect(uncaught).toEqual([]);
  await context.close();
});
