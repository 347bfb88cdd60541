// The account flows in real Chromium against the `npm start` stack.
// Every test that changes an account creates its own emulator user, so the file can be re-run.
import { expect, test, type Page } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { nameFromEmail } from '../../src/lib/display-name.ts';
import { createEmulatorUser, DEMO, readOobCodes, shot, signIn } from './support/fixtures.ts';
import { waitForServiceWorker } from './support/offline.ts';

const freshEmail = (prefix: string) => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@demo.test`;

/** A new account: the server makes it a lead (not a client, initial form not filled) on its first call. */
async function freshUser(prefix: string, password = 'Start#2026') {
  const email = freshEmail(prefix);
  const { idToken } = await createEmulatorUser(email, password);
  return { email, password, idToken };
}

/** The signed-in shell has rendered from the replica: the user card greets by name (made from the email when the profile has none). */
async function expectShell(page: Page, name: string) {
  await expect(page.getByRole('region', { name: 'User' }).getByText(name, { exact: true })).toBeVisible({ timeout: 20_000 });
}

test.describe('login', () => {
  test('a wrong password shows the inline error, editing clears it, the right one signs in', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/login$/); // unauthenticated users are sent to /login
    await expect(page.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('target', '_blank');
    await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('type', 'email');

    const password = page.getByLabel('Password', { exact: true });
    await page.getByLabel('Email', { exact: true }).fill(DEMO.client.email);
    await password.fill('not-the-password');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show password' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide password' }).click();
    await expect(password).toHaveAttribute('type', 'password');

    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText(texts.wrongCredentials)).toBeVisible();
    await shot(page, 'account-login-error');
    await password.fill(DEMO.client.password);
    await expect(page.getByText(texts.wrongCredentials)).toHaveCount(0);

    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expectShell(page, 'Dana Client');

    // A signed-in user who opens /login is sent to the dashboard.
    await page.goto('/login');
    await expect(page).toHaveURL(/\/$/);
  });

  test('login at 375px, and Sign In offline says it needs the connection', async ({ page, context }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/login');
    await page.getByLabel('Email', { exact: true }).fill(DEMO.client.email);
    await page.getByLabel('Password', { exact: true }).fill(DEMO.client.password);
    await shot(page, 'account-login-375');
    // The app's own form, not the first paint's: a sign-in typed before the app took over waits for the
    // connection instead (flaky-first-visit.spec.ts).
    await expect(page.locator('[data-first-paint]')).toHaveCount(0);
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByText(texts.needsConnection)).toBeVisible();
    await context.setOffline(false);
  });
});

test('the lead sees the approval and initial-form banners, fills the form, and the banner goes', async ({ page, request }) => {
  const lead = await freshUser('lead');
  await signIn(page, lead.email, lead.password);
  await expectShell(page, nameFromEmail(lead.email));
  await expect(page.getByText(texts.awaitingApproval)).toBeVisible();
  const formBanner = page.getByRole('link', { name: 'Fill in the initial form' });
  await expect(formBanner).toBeVisible();
  await shot(page, 'account-lead-banners');

  await formBanner.click();
  await expect(page).toHaveURL(/\/initial-form$/);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Date and time of last transfer is required')).toBeVisible();
  await expect(page.getByText('Fraud type is required')).toBeVisible();
  await expect(page.getByText('Fraud URL is required')).toBeVisible();
  await shot(page, 'account-initial-form-errors');

  await page.getByLabel('Money lost').fill('2500.50');
  await page.getByLabel('Date of last transfer').fill('14/03/2025');
  await page.getByLabel('Time of last transfer', { exact: true }).fill('10:30');
  const fraudType = page.getByLabel('Fraud type');
  await expect(fraudType.locator('option', { hasText: 'Job fraud' })).toHaveCount(1);
  await fraudType.selectOption({ label: 'Job fraud' });
  await page.getByLabel('Fraud URL').fill('https://scam.example.com');
  await page.getByRole('button', { name: 'Submit' }).click();

  await expect(page.getByText(texts.initialFormFilled)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(formBanner).toHaveCount(0);
  await expect(page.getByText(texts.awaitingApproval)).toBeVisible(); // still not a client

  // Once the server has it, a reload keeps the banner gone, and /initial-form sends the user to /.
  await expect
    .poll(async () => {
      const res = await request.get('/api/user', { headers: { authorization: `Bearer ${lead.idToken}` } });
      return ((await res.json()) as { data?: { filledInitialForm?: boolean } }).data?.filledInitialForm;
    })
    .toBe(true);
  await page.reload();
  await expectShell(page, nameFromEmail(lead.email));
  await expect(formBanner).toHaveCount(0);
  await page.goto('/initial-form');
  await expect(page).toHaveURL(/\/$/);
});

test('password reset through the emailed code, then sign-in with the new password', async ({ page }) => {
  const user = await freshUser('reset');
  const newPassword = 'Renewed#2026';

  await page.goto('/login');
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByRole('button', { name: 'Reset Your Password' }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset Your Password' });
  await expect(dialog.getByLabel('Account email')).toHaveValue(user.email);
  await dialog.getByRole('button', { name: 'Send reset email' }).click();
  await expect(dialog.getByText(texts.resetEmailSent)).toBeVisible();
  await shot(page, 'account-reset-sent');
  await dialog.getByRole('button', { name: 'Close', exact: true }).first().click();

  const code = await readOobCodes(user.email, 'PASSWORD_RESET');
  expect(code, 'the emulator holds the emailed code').toBeTruthy();

  // Another mode goes to / (and from there, signed out, to /login); a bad code shows the provider's error as it comes, in words.
  await page.goto(`/initial-password?mode=verifyEmail&oobCode=${code!.oobCode}`);
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/initial-password?mode=resetPassword&oobCode=not-a-code');
  await expect(page.getByRole('alert')).toHaveText('This link has expired or was already used.');

  await page.goto(`/initial-password?mode=resetPassword&oobCode=${encodeURIComponent(code!.oobCode)}`);
  await expect(page.getByText(user.email)).toBeVisible();
  const rules = page.getByRole('list', { name: 'Password rules' }).getByRole('listitem');
  await expect(rules).toHaveCount(5);
  await page.getByLabel('New Password').fill('abc');
  await expect(rules.filter({ hasText: 'At least 1 lowercase letter' })).toHaveAttribute('data-met', 'true');
  await expect(rules.filter({ hasText: 'At least 1 uppercase letter' })).toHaveAttribute('data-met', 'false');
  await page.getByLabel('Confirm Password').fill('abd');
  await expect(page.getByText(texts.passwordsDoNotMatch)).toBeVisible();
  await shot(page, 'account-initial-password-checklist');

  await page.getByLabel('New Password').fill(newPassword);
  await page.getByLabel('Confirm Password').fill(newPassword);
  await expect(page.getByText(texts.passwordsMatch)).toBeVisible();
  await expect(rules.and(page.locator('[data-met="true"]'))).toHaveCount(5);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await expect(page.getByRole('status').filter({ hasText: texts.passwordUpdated }).first()).toBeVisible();
  await shot(page, 'account-initial-password-done');
  // After 3 s it goes to /, which sends a signed-out user on to /login.
  await expect(page).toHaveURL(/\/login$/, { timeout: 8_000 });

  await signIn(page, user.email, newPassword);
  await expectShell(page, nameFromEmail(user.email));
});

test('settings: profile, notifications, change password and the generator', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const user = await freshUser('change');
  const newPassword = 'Changed#2026';
  await signIn(page, user.email, user.password);
  await expectShell(page, nameFromEmail(user.email));
  await page.getByRole('link', { name: 'Settings' }).first().click();
  await expect(page).toHaveURL(/\/settings$/);

  await expect(page.getByRole('tab', { name: 'Profile' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByLabel('Email', { exact: true })).toHaveValue(user.email);
  await expect(page.getByLabel('Email', { exact: true })).toHaveAttribute('readonly', '');
  await shot(page, 'account-settings-profile');

  await page.getByRole('tab', { name: 'Notifications' }).click();
  // The spec's two switches, on by default, and now the person's to change (notifications.spec.ts changes them).
  for (const name of ['General Updates', 'Personal Updates']) {
    const sw = page.getByRole('checkbox', { name });
    await expect(sw).toBeChecked();
    await expect(sw).toBeEnabled();
  }
  await shot(page, 'account-settings-notifications');

  await page.getByRole('tab', { name: 'Security' }).click();
  const current = page.getByLabel('Current password');
  const next = page.getByLabel('New password', { exact: true });
  const confirm = page.getByLabel('Confirm new password');
  await current.fill('Wrong#2026');
  await next.fill(newPassword);
  await confirm.fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText(texts.passwordChangeErrorPrefix, { exact: false })).toBeVisible();
  await expect(current).toHaveValue('');
  await expect(next).toHaveValue('');
  await expect(confirm).toHaveValue('');

  await current.fill(user.password);
  await next.fill(newPassword);
  await confirm.fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText(texts.passwordUpdated)).toBeVisible();

  await page.getByRole('button', { name: 'Generate password' }).click();
  const generated = page.getByLabel('Generated password');
  await expect(generated).toHaveValue(/^[A-Za-z0-9]{12}$/);
  await page.getByRole('button', { name: 'Copy password' }).click();
  await expect(page.getByText('Copied', { exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await generated.inputValue());
  await page.evaluate(() => window.scrollTo(0, 0)); // a full-page shot of a scrolled page misplaces the sticky bar
  await shot(page, 'account-settings-security');
  await expect(page.getByText('Copied', { exact: true })).toHaveCount(0, { timeout: 5_000 });

  await page.setViewportSize({ width: 375, height: 800 });
  await page.evaluate(() => window.scrollTo(0, 0));
  await shot(page, 'account-settings-security-375');

  // The new password is the one that works now.
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Email', { exact: true }).fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByText(texts.wrongCredentials)).toBeVisible();
  await signIn(page, user.email, newPassword);
  await expectShell(page, nameFromEmail(user.email));
});

test('sign-out: back at /login, the dashboard is out of reach, the device copy is gone', async ({ page }) => {
  const user = await freshUser('signout');
  await signIn(page, user.email, user.password);
  await expectShell(page, nameFromEmail(user.email));
  const dbNames = () => page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name ?? ''));
  expect((await dbNames()).some((n) => n.startsWith('portal-'))).toBe(true);

  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(async () => (await dbNames()).some((n) => n.startsWith('portal-'))).toBe(false);
  await page.goto('/');
  await expect(page).toHaveURL(/\/login$/);
  await page.goto('/settings');
  await expect(page).toHaveURL(/\/login$/);
});

test('sign-out with an unsent request asks first', async ({ page, context }) => {
  const user = await freshUser('unsent');
  await signIn(page, user.email, user.password);
  await expectShell(page, nameFromEmail(user.email));
  await page.goto('/initial-form');
  // The form's code must be loaded before the connection goes, or the offline page is all there is.
  await expect(page.getByLabel('Money lost')).toBeVisible();
  await context.setOffline(true);
  await page.getByLabel('Money lost').fill('10');
  await page.getByLabel('Date of last transfer').fill('02/01/2025');
  await page.getByLabel('Time of last transfer', { exact: true }).fill('08:00');
  await page.getByLabel('Fraud type').selectOption({ label: 'Crypto' });
  await page.getByLabel('Fraud URL').fill('scam.example.com');
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText(texts.sentWhenOnline)).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('button', { name: 'Log out' }).click();
  const ask = page.getByRole('alertdialog');
  await expect(ask).toContainText('You have 1 unsent request. Signing out deletes them from this device.');
  await shot(page, 'account-signout-confirm');
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(ask).toHaveCount(0);
  await expect(page).toHaveURL(/\/$/);

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out anyway' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await context.setOffline(false);
});

test('not-found page', async ({ page }) => {
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: texts.pageNotFound })).toBeVisible();
  await shot(page, 'account-not-found');
  await page.getByRole('link', { name: texts.goToDashboard }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectShell(page, 'Dana Client');
});

test('the shell at 1280px and at 375px with the drawer open', async ({ page }) => {
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await expectShell(page, 'Dana Client');
  await shot(page, 'account-shell-1280');
  await page.getByRole('region', { name: 'User' }).getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByLabel('First Name')).toHaveValue('Dana');
  await expect(page.getByLabel('Last Name')).toHaveValue('Client');
  await page.getByRole('link', { name: 'Dashboard' }).first().click();

  await page.setViewportSize({ width: 375, height: 800 });
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByRole('navigation', { name: 'User menu' })).toBeVisible();
  await expect(drawer.getByRole('button', { name: 'Upload Files' })).toBeVisible();
  // The screenshot shows the drawer where it stops: its slide-in has finished.
  await drawer.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
  await shot(page, 'account-shell-375-drawer');
});

test('after one successful load, a reload offline still shows the shell with the name', async ({ page, context }) => {
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await expectShell(page, 'Dana Client');
  // The service worker must control the page before it can answer the offline reload.
  await waitForServiceWorker(page);
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller), 'a service worker controls the page').toBe(true);
  await context.setOffline(true);
  await page.reload();
  await expectShell(page, 'Dana Client');
  await shot(page, 'account-offline-reload');
  await context.setOffline(false);
});
