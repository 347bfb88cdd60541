// The second factor and the sessions, end to end (docs/api.md, Security): a new staff account enrols a passkey in
// Chromium's virtual authenticator and reaches the queue; a second session of it meets the verification screen while
// the server refuses its staff calls; a recovery code opens a session once and not twice; the demo staff account
// passes with an authenticator code computed here; a client who turns on an authenticator app is asked for it at the
// next sign-in; a device signed out from Settings → Security returns to the login page with the reason at its next call. Every test uses fresh accounts except the TOTP one (the demo staff).
import { type Browser, type Page, expect, test } from '@playwright/test';
import { SESSION_END_TEXTS } from '../../domain/security.ts';
import { texts } from '../../domain/texts.ts';
import { DEMO, bearer, createEmulatorUser, dataOf, gateCard, idToken, nextTotpCode, openContext, shotBoth, signIn, totpCode, verifyApiSession } from './support/fixtures.ts';

const PASSWORD = 'Secure#2026';
let counter = 0;
const freshEmail = (tag: string) => `${tag}-${Date.now()}-${++counter}@e2e.test`;

/** A passkey authenticator inside this page's Chromium (DevTools WebAuthn), as a phone's or laptop's would be. */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  });
}

/**
 * A call made from the page with its own session's ID token (read where the Firebase SDK keeps it), as the app's
 * own calls are: the answer's status and error code.
 */
async function callFromPage(page: Page, path: string): Promise<{ status: number; code: string | null }> {
  return page.evaluate(async (url) => {
    const token = await new Promise<string>((resolve, reject) => {
      const open = indexedDB.open('firebaseLocalStorageDb');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const all = open.result.transaction('firebaseLocalStorage').objectStore('firebaseLocalStorage').getAll();
        all.onsuccess = () => resolve((all.result as { value: { stsTokenManager: { accessToken: string } } }[])[0].value.stsTokenManager.accessToken);
        all.onerror = () => reject(all.error);
      };
    });
    const res = await fetch(`/api${url}`, { headers: { authorization: `Bearer ${token}` } });
    const body = (await res.json().catch(() => null)) as { error?: { code?: string } } | null;
    return { status: res.status, code: body?.error?.code ?? null };
  }, path);
}

/** A fresh account given the staff role by the demo admin (a role change is a step-up action: verified just before). */
async function newStaffAccount(browser: Browser): Promise<{ email: string; uid: string }> {
  const email = freshEmail('staffer');
  const { uid, idToken: own } = await createEmulatorUser(email, PASSWORD);
  const context = await openContext(browser);
  await dataOf(await context.request.get('/api/user', { headers: bearer(own) }));
  const adminToken = await idToken(DEMO.admin.email, DEMO.admin.password);
  await verifyApiSession(DEMO.admin.email, adminToken);
  const admin = { headers: bearer(adminToken) };
  const file = await dataOf<{ client: { version: number } }>(await context.request.get(`/api/staff/clients/${uid}`, admin));
  await dataOf(await context.request.put(`/api/staff/users/${uid}/role`, { ...admin, data: { version: file.client.version, staff: true } }));
  await context.context().close();
  return { email, uid };
}

const queueHeading = (page: Page) => page.getByRole('heading', { name: 'Staff workspace', level: 1 });

test('a new staff account enrols a passkey; another session of it is held at the gate and refused by the server; a recovery code opens a session once', async ({ browser }) => {
  test.setTimeout(180_000);
  const { email } = await newStaffAccount(browser);

  // First staff sign-in: enrolment, passkey first, then the recovery codes once, then the queue.
  const first = await openContext(browser);
  await addVirtualAuthenticator(first);
  await signIn(first, email, PASSWORD);
  await expect(first.getByRole('heading', { name: 'Protect your staff account' })).toBeVisible();
  await expect(first.getByRole('button', { name: 'Use an authenticator app instead' })).toBeVisible();
  await shotBoth(first, 'security-gate-enrol', { noSidewaysScroll: true });
  await first.getByLabel('Passkey name').fill('Work laptop');
  await first.getByRole('button', { name: 'Add a passkey' }).click();
  const codes = first.getByTestId('recovery-codes').getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await shotBoth(first, 'security-recovery-codes', { noSidewaysScroll: true });
  const recoveryCodes = await codes.allInnerTexts();
  await first.getByRole('button', { name: 'I have saved them' }).click();
  await expect(queueHeading(first)).toBeVisible();

  // A second sign-in (no passkey on that browser): the verification screen, and the server refuses its staff calls.
  const second = await openContext(browser);
  await signIn(second, email, PASSWORD);
  await expect(second.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible();
  await expect(second.getByRole('button', { name: 'Use your passkey' })).toBeVisible();
  await expect(queueHeading(second)).toHaveCount(0);
  await shotBoth(second, 'security-gate-verify', { noSidewaysScroll: true });
  expect(await callFromPage(second, '/staff/queue?tab=leads')).toEqual({ status: 403, code: 'SECOND_FACTOR_REQUIRED' });
  // The enrolled session was verified: the same call passes there.
  expect((await callFromPage(first, '/staff/queue?tab=leads')).status).toBe(200);

  // A recovery code opens the second session.
  await second.getByRole('button', { name: 'Use a recovery code' }).click();
  await second.getByLabel('Recovery code').fill(recoveryCodes[0].toUpperCase());
  await second.getByRole('button', { name: 'Use recovery code' }).click();
  await expect(queueHeading(second)).toBeVisible();
  expect((await callFromPage(second, '/staff/queue?tab=leads')).status).toBe(200);

  // The same code does not open a third.
  const third = await openContext(browser);
  await signIn(third, email, PASSWORD);
  await third.getByRole('button', { name: 'Use a recovery code' }).click();
  await third.getByLabel('Recovery code').fill(recoveryCodes[0]);
  await third.getByRole('button', { name: 'Use recovery code' }).click();
  await expect(gateCard(third).getByRole('alert')).toContainText('not valid, or was used already');
  await expect(queueHeading(third)).toHaveCount(0);
  expect(await callFromPage(third, '/staff/queue?tab=leads')).toEqual({ status: 403, code: 'SECOND_FACTOR_REQUIRED' });
  for (const page of [first, second, third]) await page.context().close();
});

test('the demo staff account passes the gate with an authenticator code computed in the test', async ({ browser }) => {
  const page = await openContext(browser);
  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(DEMO.staff.email);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.staff.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible({ timeout: 20_000 });
  // The demo account has no passkey: the code is the way in.
  await expect(page.getByRole('button', { name: 'Use your passkey' })).toHaveCount(0);
  await page.getByLabel('6-digit code from your authenticator app').fill('000000');
  await page.getByRole('button', { name: 'Verify code' }).click();
  await expect(gateCard(page).getByRole('alert')).toContainText('does not match');
  await page.getByLabel('6-digit code from your authenticator app').fill(await nextTotpCode(DEMO.staff.email));
  await page.getByRole('button', { name: 'Verify code' }).click();
  await expect(queueHeading(page)).toBeVisible();
  await page.context().close();
});

test('a client who turns on an authenticator app in Settings → Security is asked for it at the next sign-in, and the server refuses that session until then', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = freshEmail('client-factor');
  await createEmulatorUser(email, PASSWORD);
  const here = await openContext(browser);
  await signIn(here, email, PASSWORD);
  await here.goto('/settings?tab=security');
  await expect(here.getByText('Recommended: with a second step')).toBeVisible();
  await here.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await here.getByRole('button', { name: 'Set up the authenticator app' }).click();
  const secret = await here.getByLabel('Or type this secret into the app').inputValue();
  await here.getByLabel('2. Enter the 6-digit code the app shows').fill(totpCode(secret));
  await here.getByRole('button', { name: 'Turn on the authenticator app' }).click();
  await expect(here.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
  await here.getByRole('button', { name: 'I have saved them' }).click();
  await expect(here.getByText('On: every sign-in to your account asks for your passkey')).toBeVisible();

  // Another device: the password alone shows the verification screen, and the server refuses the session's reads.
  const there = await openContext(browser);
  await signIn(there, email, PASSWORD);
  await expect(there.getByRole('heading', { name: 'Confirm it’s you' })).toBeVisible({ timeout: 20_000 });
  await expect(there.getByRole('button', { name: 'Use your passkey' })).toHaveCount(0);
  // Before the app's menu: the card itself offers the way out.
  await expect(gateCard(there).getByRole('button', { name: 'Sign out' })).toBeVisible();
  expect(await callFromPage(there, '/sync?cursor=0')).toEqual({ status: 403, code: 'SECOND_FACTOR_REQUIRED' });
  expect(await callFromPage(there, '/user')).toEqual({ status: 403, code: 'SECOND_FACTOR_REQUIRED' });
  expect((await callFromPage(here, '/sync?cursor=0')).status).toBe(200);
  await shotBoth(there, 'security-client-gate', { noSidewaysScroll: true });
  // The step after the one that turned the app on: each step's code is accepted once.
  await there.getByLabel('6-digit code from your authenticator app').fill(totpCode(secret, Math.floor(Date.now() / 30_000) + 1));
  await there.getByRole('button', { name: 'Verify code' }).click();
  await expect(gateCard(there)).toHaveCount(0);
  await expect(there.getByTestId('second-factor-checking')).toHaveCount(0);
  expect((await callFromPage(there, '/sync?cursor=0')).status).toBe(200);
  await there.goto('/settings?tab=security');
  await expect(there.getByText('On: every sign-in to your account asks for your passkey')).toBeVisible();
  await here.context().close();
  await there.context().close();
});

test('Settings → Security: the devices; signing out the other one sends it to the login page with the reason at its next call, its unsent change not reported as sent', async ({ browser }) => {
  test.setTimeout(120_000);
  const email = freshEmail('devices');
  await createEmulatorUser(email, PASSWORD);
  const here = await openContext(browser);
  const there = await openContext(browser);
  await signIn(there, email, PASSWORD);
  await signIn(here, email, PASSWORD);

  await here.goto('/settings?tab=security');
  const devices = here.getByTestId('device');
  await expect(devices).toHaveCount(2);
  await expect(devices.filter({ hasText: 'This device' })).toHaveCount(1);
  await expect(here.getByRole('heading', { name: 'Two-step sign-in' })).toBeVisible();
  await expect(here.getByText('Recommended: with a second step')).toBeVisible();
  await shotBoth(here, 'security-settings', { noSidewaysScroll: true });

  // The other device queues a change while offline: it must not be reported as sent once its session has ended.
  await there.goto('/contact-us');
  await expect(there.getByRole('textbox', { name: 'Subject' })).toBeVisible();
  await there.context().setOffline(true);
  await there.getByRole('textbox', { name: 'Subject' }).fill('Sent after my session ended');
  await there.getByRole('textbox', { name: 'Message' }).fill('This must not be reported as sent.');
  await there.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(there.getByRole('button', { name: /^Outbox: 1 waiting to send$/ })).toBeVisible();

  await devices.filter({ hasNotText: 'This device' }).getByRole('button', { name: /^Sign out / }).click();
  await expect(here.getByText(/is signed out\.$/)).toBeVisible();
  await expect(devices).toHaveCount(1);

  // Back online, the other device's next call (the queued command) is refused: it signs out and says why.
  await there.context().setOffline(false);
  await expect(there).toHaveURL(/\/login/, { timeout: 30_000 });
  const notice = there.getByTestId('session-ended');
  await expect(notice).toContainText(SESSION_END_TEXTS['signed-out-elsewhere']);
  await expect(notice).toContainText(/\d+ changes? made on this device had not been sent/);
  // What the app said while offline ("saved on this device and will be sent") no longer holds, and is gone.
  await expect(there.getByText(texts.sentWhenOnline)).toHaveCount(0);
  await shotBoth(there, 'security-session-ended');
  // Nothing of the message reached the server: this device's own list is gone with its replica, and a fresh sign-in sees none.
  await signIn(there, email, PASSWORD);
  const token = await idToken(email, PASSWORD);
  const threads = await dataOf<{ subject: string }[]>(await there.request.get('/api/contact', { headers: bearer(token) }));
  expect(threads.map((t) => t.subject)).not.toContain('Sent after my session ended');
  await here.context().close();
  await there.context().close();
});
