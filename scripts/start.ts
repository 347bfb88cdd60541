// `npm start`: build the PWA when stale, start the Auth emulator, seed the demo accounts, start the
// API server (which also serves the PWA) and print the URL and the logins. Ctrl-C stops everything;
// so does a hard stop (kill -9) of this process, through the child guard (scripts/child-guard.ts).
// The emulator's accounts are saved under DATA_DIR/auth as they change, not only on a clean stop.
//
// Env: PORT (8080), AUTH_EMULATOR_PORT (9099), DATA_DIR (./data), STATIC_DIR (./dist),
// DATABASE_URL (optional PostgreSQL), VERBOSE_EMULATOR=1 to see the emulator's own output,
// MAIL_SMTP_PORT (1025) and MAIL_INBOX_PORT (1080) for the local mail inbox (scripts/mail-inbox.ts), which runs in
// this process and receives every mail the server sends; with SMTP_URL set, mail goes there instead and no inbox runs.
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
  bin,
  childEnv,
  ensurePortFree,
  ROOT,
  spawnManaged,
  startAuthEmulator,
  waitForHttp,
  type AuthEmulator,
  type Managed,
} from './emulator.ts';
import { startMailInbox, type MailInbox } from './mail-inbox.ts';
import { DEMO_TOTP_SECRETS } from '../server/seed/seed-data.ts';

const PROJECT_ID = 'demo-portal';

/** What the built PWA depends on: if any of it is newer than dist/index.html, the build is stale. */
const BUILD_INPUTS = ['src', 'sw', 'domain', 'public', 'index.html', 'vite.config.ts'];

function newestFile(path: string): { path: string; mtimeMs: number } | undefined {
  if (!existsSync(path)) return undefined;
  const st = statSync(path);
  if (!st.isDirectory()) return { path, mtimeMs: st.mtimeMs };
  let newest: { path: string; mtimeMs: number } | undefined;
  for (const entry of readdirSync(path)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    const found = newestFile(join(path, entry));
    if (found && (!newest || found.mtimeMs > newest.mtimeMs)) newest = found;
  }
  return newest;
}

/** Why dist/ must be rebuilt, or undefined when it is up to date. */
export function distStaleReason(distDir = join(ROOT, 'dist')): string | undefined {
  const index = join(distDir, 'index.html');
  if (!existsSync(index)) return `${relative(ROOT, index)} is missing`;
  const builtAt = statSync(index).mtimeMs;
  for (const input of BUILD_INPUTS) {
    const newest = newestFile(join(ROOT, input));
    if (newest && newest.mtimeMs > builtAt) return `${relative(ROOT, newest.path)} changed since the last build`;
  }
  return undefined;
}

/** Starts `vite build` with its output on our terminal; await `.exited` for its exit code. */
export function startBuild(): Managed {
  return spawnManaged('build', bin('vite'), ['build'], { output: 'inherit' });
}

export interface StackOptions {
  /** `node --watch` for the API server (dev). */
  watch?: boolean;
  /** Also run the Vite dev server on this port (dev). */
  vitePort?: number;
  /** Build dist/ first when it is stale (start). */
  build?: boolean;
}

function envPort(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) {
    console.error(`${name}=${raw} is not a valid port`);
    process.exit(2);
  }
  return port;
}

/**
 * Brings the stack up and keeps it running until a signal or until one of its processes dies.
 * Never returns: exits the process with 0 after Ctrl-C, non-zero on any failure.
 */
export async function runStack(opts: StackOptions): Promise<never> {
  const port = envPort('PORT', 8080);
  const authPort = envPort('AUTH_EMULATOR_PORT', 9099);
  const dataDir = resolve(ROOT, process.env.DATA_DIR || 'data');
  const staticDir = resolve(ROOT, process.env.STATIC_DIR || 'dist');
  const authDataDir = join(dataDir, 'auth');
  // Mail goes to the SMTP server the caller named, or to the local inbox.
  const givenSmtpUrl = process.env.SMTP_URL || undefined;
  const smtpPort = envPort('MAIL_SMTP_PORT', 1025);
  const inboxPort = envPort('MAIL_INBOX_PORT', 1080);
  let inbox: MailInbox | undefined;

  let emulator: AuthEmulator | undefined;
  let emulatorStarting: Promise<unknown> | undefined;
  const procs: Managed[] = []; // stopped in reverse start order: vite, server, seed, build
  let shuttingDown: Promise<never> | undefined;

  const shutdown = (code: number, why?: string): Promise<never> => {
    shuttingDown ??= (async () => {
      if (why) console.error(why);
      for (const p of [...procs].reverse()) {
        if (!p.hasExited()) await p.stop({ signal: 'SIGTERM', graceMs: 10_000 });
      }
      await inbox?.close();
      // Ctrl-C while the emulator is starting: let it come up, then stop it cleanly.
      await emulatorStarting?.catch(() => undefined);
      if (emulator) {
        console.log('Stopping the Auth emulator (saving accounts)…');
        await emulator.stop();
      }
      process.exit(code);
    })();
    return shuttingDown;
  };

  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals++;
    if (signals === 1) {
      console.log(`\n${signal}: stopping…`);
      void shutdown(0);
    } else {
      // Second Ctrl-C: stop waiting. The exit hook in emulator.ts SIGKILLs every child group.
      console.log('Forced stop.');
      process.exit(130);
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  /** A process that ends on its own while the stack is running takes the stack down. */
  const watchForDeath = (name: string, exited: Promise<number>) => {
    void exited.then((code) => {
      if (!shuttingDown) void shutdown(code === 0 ? 1 : code, `${name} exited unexpectedly (code ${code}); stopping the rest.`);
    });
  };

  try {
    // Fail before starting anything if a port is taken (a stale `npm start` in another terminal):
    // otherwise the health check could succeed against the wrong server.
    await ensurePortFree(port, 'API server');
    await ensurePortFree(authPort, 'Firebase Auth emulator');
    if (opts.vitePort) await ensurePortFree(opts.vitePort, 'Vite dev server');
    if (!givenSmtpUrl) {
      await ensurePortFree(smtpPort, 'mail inbox SMTP server; MAIL_SMTP_PORT chooses another');
      await ensurePortFree(inboxPort, 'mail inbox page; MAIL_INBOX_PORT chooses another');
    }

    if (opts.build && staticDir === resolve(ROOT, 'dist')) {
      const reason = distStaleReason(staticDir);
      if (reason) {
        console.log(`Building the PWA (${reason})…`);
        const build = startBuild();
        procs.push(build);
        const code = await build.exited;
        if (shuttingDown) return await shuttingDown;
        if (code !== 0) return await shutdown(1, `vite build failed (exit code ${code}).`);
      }
    }

    mkdirSync(dataDir, { recursive: true });
    console.log(`Starting the Firebase Auth emulator on 127.0.0.1:${authPort}…`);
    const starting = startAuthEmulator({
      port: authPort,
      dataDir: authDataDir,
      projectId: PROJECT_ID,
      verbose: process.env.VERBOSE_EMULATOR === '1',
    });
    emulatorStarting = starting.then((started) => (emulator = started));
    const emu = await starting;
    if (shuttingDown) return await shuttingDown;
    watchForDeath('The Auth emulator', emu.exited);

    if (!givenSmtpUrl) inbox = await startMailInbox({ smtpPort, httpPort: inboxPort });
    const appUrl = opts.vitePort ? `http://localhost:${opts.vitePort}` : `http://localhost:${port}`;

    const env = childEnv({
      // The links in mail open the app where this stack serves it (the Vite dev server in dev).
      PUBLIC_URL: process.env.PUBLIC_URL || appUrl,
      ...(inbox ? { SMTP_URL: inbox.smtpUrl } : {}),
      PORT: String(port),
      DATA_DIR: dataDir,
      STATIC_DIR: staticDir,
      FIREBASE_AUTH_EMULATOR_HOST: emu.host,
      FIREBASE_PROJECT_ID: PROJECT_ID,
    });

    const seedScript = join(ROOT, 'server', 'seed', 'seed-cli.ts');
    if (!existsSync(seedScript)) return await shutdown(1, `${relative(ROOT, seedScript)} is missing: cannot seed the demo accounts.`);
    console.log('Seeding the demo accounts…');
    const seed = spawnManaged('seed', bin('node'), [seedScript], { env, output: 'prefix' });
    procs.push(seed);
    const seedCode = await seed.exited;
    if (shuttingDown) return await shuttingDown;
    if (seedCode !== 0) return await shutdown(1, `Seeding failed (exit code ${seedCode}).`);
    // The demo accounts are on disk before anything can use them: a hard stop from here on keeps their uids.
    await emu.saveAccounts();

    const serverArgs = opts.watch ? ['--watch', '--watch-preserve-output', 'server/main.ts'] : ['server/main.ts'];
    const server = spawnManaged('api', bin('node'), serverArgs, { env, output: 'prefix' });
    procs.push(server);
    watchForDeath('The API server', server.exited);
    await waitForHttp(`http://localhost:${port}/api/health`, 60_000, {
      abortIf: () => (server.hasExited() ? 'the API server exited' : shuttingDown ? 'stopping' : undefined),
    });
    if (shuttingDown) return await shuttingDown;

    let vite: Managed | undefined;
    if (opts.vitePort) {
      // API_PORT tells vite.config.ts where to proxy /api when PORT is not the default.
      vite = spawnManaged('vite', bin('vite'), ['--port', String(opts.vitePort), '--strictPort'], {
        env: childEnv({ API_PORT: String(port), FIREBASE_AUTH_EMULATOR_HOST: emu.host }),
        output: 'prefix',
      });
      procs.push(vite);
      watchForDeath('The Vite dev server', vite.exited);
      await waitForHttp(`http://localhost:${opts.vitePort}/`, 60_000, {
        anyStatus: true,
        abortIf: () => (vite!.hasExited() ? 'the Vite dev server exited' : shuttingDown ? 'stopping' : undefined),
      });
      if (shuttingDown) return await shuttingDown;
    }

    console.log(
      [
        '',
        `  Client portal: ${appUrl}${opts.vitePort ? `  (hot reload; API at http://localhost:${port}/api)` : ''}`,
        `  API docs:      http://localhost:${port}/api/docs`,
        `  Auth emulator: ${emu.host}  (accounts saved to ${authDataDir.startsWith(ROOT + '/') ? relative(ROOT, authDataDir) : authDataDir} as they change)`,
        inbox ? `  Mail inbox:    ${inbox.url}  (every mail the portal sends; SMTP on ${inbox.smtpUrl.replace('smtp://', '')})` : `  Mail:          sent through ${smtpHost(givenSmtpUrl)}`,
        '',
        '  Demo logins:',
        '    admin@demo.test   Admin#2026   admin (staff workspace, team, admin screens)',
        '    staff@demo.test   Staff#2026   support staff (staff workspace at /staff)',
        '    client@demo.test  Client#2026  approved client',
        '    lead@demo.test    Lead#2026    lead, not approved yet',
        '',
        '  Second factor of staff and admin (asked at every staff sign-in): run `npm run demo-code` for the current',
        `  codes, or add these authenticator secrets to an app: staff ${DEMO_TOTP_SECRETS.staff}, admin ${DEMO_TOTP_SECRETS.admin}`,
        '',
        '  Press Ctrl-C to stop.',
        '',
      ].join('\n'),
    );
    // Stay alive until a signal or a child's death calls shutdown().
    setInterval(() => {}, 1 << 30);
    return await new Promise<never>(() => {});
  } catch (err) {
    return await shutdown(1, `Startup failed: ${(err as Error).message}`);
  }
}

/** An SMTP URL's host and port, without the credentials it may carry. */
function smtpHost(url: string | undefined): string {
  try {
    return url ? new URL(url).host : '(none)';
  } catch {
    return '(SMTP_URL)';
  }
}

if (import.meta.main) {
  await runStack({ build: true });
}
