// The real server process dies (SIGKILL, the crash fault) right after a push service accepted a push and before the
// worker recorded it. Restarted on the same database, its worker finds the row abandoned when the lease ends, calls
// it unknown and sends nothing twice: the push service got exactly one request for that delivery.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from '../server-process.ts';
import { emulatorHost, freshPostgresUrl, postgresSkipReason, signUp } from '../test-helper.ts';
import { type PushReceiver, startPushReceiver } from './test-support/push-receiver.ts';

const skip = postgresSkipReason();
const LEASE_SECONDS = 3;

describe.skipIf(skip !== null)('a delivery worker killed between sending and recording', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'portal-crash-'));
  let server: ServerProcess | undefined;
  let receiver: PushReceiver | undefined;
  let db: pg.Client | undefined;
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
    await db?.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends nothing twice: the push went once, and the row is unknown after the restart', async () => {
    const url = await freshPostgresUrl();
    const env = { DATABASE_URL: url, TEST_FAULTS: '1', DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS) };
    server = await startServerProcess(env, { dataDir });
    const call = async (method: string, route: string, token: string | null, body?: unknown) => {
      const res = await fetch(`${server!.url}${route}`, {
        method,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      expect(res.ok, `${method} ${route}: ${res.status} ${await res.clone().text()}`).toBe(true);
      return res.status === 204 ? null : ((await res.json()) as { data: unknown }).data;
    };
    const person = async () => {
      const { idToken, localId } = await signUp(emulatorHost(), `crash-${randomUUID()}@test.example`, 'Secret#123');
      await call('GET', '/api/user', idToken);
      return { token: idToken, uid: localId };
    };
    const { publicKey } = (await call('GET', '/api/push/public-key', null)) as { publicKey: string };
    receiver = await startPushReceiver({ vapidPublicKey: publicKey });
    const [client, admin] = [await person(), await person()];
    db = new pg.Client({ connectionString: url });
    await db.connect();
    await db.query('UPDATE users SET is_admin = true, is_staff = true, is_client = true WHERE uid = $1', [admin.uid]);
    // The admin's session has verified its second factor, as after the code screen (server/test-helper.ts verifySecondFactor).
    await db.query("UPDATE sessions SET second_factor_at = now() + interval '1 day' WHERE uid = $1", [admin.uid]);
    const device = receiver.subscribe();
    await call('POST', '/api/push/subscriptions', client.token, device);

    // The process dies right after the push service takes the push.
    await call('POST', '/api/__test/faults', null, { crashAfterSendRate: 1 });
    await call('POST', `/api/notification/${client.uid}`, admin.token, { notification: { message: 'A new document is in your case file' } });
    const [push] = await receiver.waitFor(1);
    expect(push.problems).toEqual([]);
    await server.exited;
    const stateOf = async () => (await db!.query<{ id: string; state: string }>("SELECT id, state FROM deliveries WHERE recipient_uid = $1 AND channel = 'push'", [client.uid])).rows;
    const [sending] = await stateOf();
    expect(sending.state).toBe('sending');
    expect(push.headers.topic).toBe(sending.id.replace(/-/g, ''));

    // Restarted on the same data, without the fault: after the lease the row is unknown, and nothing more is sent.
    await server.stop();
    server = await startServerProcess({ DATABASE_URL: url, DELIVERY_LEASE_SECONDS: String(LEASE_SECONDS) }, { dataDir });
    await expect.poll(async () => (await stateOf())[0].state, { timeout: 30_000, interval: 250 }).toBe('unknown');
    // Two more of the worker's rounds (it polls every 2 s) would have resent it by now, were it ever resent.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    expect(receiver.received.filter((p) => p.endpoint === device.endpoint)).toHaveLength(1);
    expect((await stateOf())[0].state).toBe('unknown');
  });
});
