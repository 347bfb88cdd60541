import { test, expect } from '@playwright/test';
import { createEmulatorUser, readOobCodes, shot, authHost } from './support/fixtures.ts';
test('stack smoke', async ({ page, request }) => {
  const h = await request.get('/api/health');
  expect(h.ok()).toBeTruthy();
  console.log('health', await h.text(), process.env.E2E_BASE_URL, process.env.E2E_AUTH_HOST, process.env.E2E_DATA_DIR);
  const u = await createEmulatorUser(`smoke${Date.now()}@demo.test`, 'Secret#123');
  expect(u.uid).toBeTruthy();
  const r = await fetch(`http://${authHost()}/identitytoolkit.googleapis.com/v1/accounts:sendOobCode?key=fake-api-key`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ requestType: 'PASSWORD_RESET', email: 'admin@demo.test' }) });
  console.log('sendOob', r.status);
  console.log('oob', await readOobCodes('admin@demo.test'));
  await page.goto('/api/health');
  await shot(page, 'zz-smoke');
});
