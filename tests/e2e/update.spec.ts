// A new deployment shows "A new version is available" (never on a first visit),
// and Reload brings the new version. The deployment is a real rebuild of dist/ with another version
// label while the stack keeps serving; dist/ is rebuilt with the normal label afterwards.
// Runs alone after every other spec (its own project in playwright.config.ts), since it replaces the build they use.
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { texts } from '../../domain/texts.ts';
import { bin, ROOT } from '../../scripts/emulator.ts';
import { DEMO, shot, signIn } from './support/fixtures.ts';
import { waitForServiceWorker } from './support/offline.ts';

function build(env: NodeJS.ProcessEnv = {}) {
  execFileSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: 'inherit' });
}

test.afterAll(() => build());

test('a new deployment shows the update prompt, and Reload brings the new version', async ({ page }) => {
  test.setTimeout(240_000);
  await signIn(page, DEMO.client.email, DEMO.client.password);
  await waitForServiceWorker(page);
  const version = page.getByTestId('app-version');
  const before = await version.innerText();
  // First visit: the worker installed and took over, but nothing asks to reload.
  await page.waitForTimeout(1_000);
  await expect(page.getByText(texts.newVersion)).toBeHidden();

  const next = `e2e-${Date.now().toString(36)}`;
  build({ APP_VERSION: next });
  await page.evaluate(async () => {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.update();
  });
  await expect(page.getByText(texts.newVersion)).toBeVisible({ timeout: 60_000 });
  await shot(page, 'update-prompt');
  await expect(version).toHaveText(before);

  await page.getByRole('button', { name: 'Reload' }).click();
  await expect(page.getByTestId('app-version')).toHaveText(`Version ${next}`, { timeout: 30_000 });
  await expect(page.getByText(texts.newVersion)).toBeHidden();
});
