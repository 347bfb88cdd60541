// Runs a command with a fresh Firebase Auth emulator (no persisted accounts) and a throwaway
// PostgreSQL, then stops both whatever happens. Usage: node scripts/with-emulator.ts vitest run --project server
// No PostgreSQL is an error, never a silent skip: the server tests on PostgreSQL are skipped only with
// SKIP_POSTGRES=1, and the run then says so at the start and at the end. Which PostgreSQL: tests/support/postgres.ts.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { bin, childEnv, ensurePortFree, freePort, ROOT, startAuthEmulator, type AuthEmulator } from './emulator.ts';
import { postgresFixHint, startThrowawayPostgres, type ThrowawayPostgres } from '../tests/support/postgres.ts';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: node scripts/with-emulator.ts <command> [args...]');
  process.exit(2);
}

// 9199 unless TEST_AUTH_EMULATOR_PORT says otherwise; when 9199 is taken (another test run on the
// same machine) any free port will do, since the tests read FIREBASE_AUTH_EMULATOR_HOST.
async function pickPort(): Promise<number> {
  if (process.env.TEST_AUTH_EMULATOR_PORT) return Number(process.env.TEST_AUTH_EMULATOR_PORT);
  try {
    await ensurePortFree(9199, 'Firebase Auth emulator');
    return 9199;
  } catch {
    const port = await freePort();
    console.warn(`[with-emulator] port 9199 is busy, using ${port} for the Auth emulator`);
    return port;
  }
}
const port = await pickPort();
const projectId = 'demo-portal';
const skipPostgres = /^(1|true|yes)$/i.test(process.env.SKIP_POSTGRES ?? '');
const SKIPPED_POSTGRES = `[with-emulator] SKIPPED: the server tests on PostgreSQL did not run (SKIP_POSTGRES=${process.env.SKIP_POSTGRES}); only PGlite was tested.`;

let emulator: AuthEmulator | undefined;
let postgres: ThrowawayPostgres | undefined;
let cleaningUp: Promise<void> | undefined;

function cleanup(): Promise<void> {
  cleaningUp ??= (async () => {
    await Promise.allSettled([emulator?.stop(), postgres?.stop()]);
  })();
  return cleaningUp;
}

let interrupted: NodeJS.Signals | undefined;
const onSignal = (signal: NodeJS.Signals) => {
  // The child is in our process group and gets Ctrl-C from the terminal itself; a signal sent
  // to us alone (kill PID) is passed on. Either way we clean up once the child has exited.
  if (interrupted) return;
  interrupted = signal;
  if (child && child.exitCode === null) child.kill(signal);
  else void cleanup().then(() => process.exit(130));
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

let child: ReturnType<typeof spawn> | undefined;

try {
  const started = Date.now();
  const [emuResult, pgResult] = await Promise.allSettled([
    startAuthEmulator({ port, projectId }),
    skipPostgres ? Promise.resolve(undefined) : startThrowawayPostgres(),
  ]);
  // Keep whichever started, so that cleanup() stops it when the other failed.
  if (emuResult.status === 'fulfilled') emulator = emuResult.value;
  if (pgResult.status === 'fulfilled' && pgResult.value && 'url' in pgResult.value) postgres = pgResult.value;
  if (emuResult.status === 'rejected') throw emuResult.reason;
  if (pgResult.status === 'rejected') throw pgResult.reason;
  if (pgResult.value && 'skipReason' in pgResult.value) {
    throw new Error(
      `the server tests on PostgreSQL need a PostgreSQL server and none could be started: ${pgResult.value.skipReason}\n${postgresFixHint()}`,
    );
  }
  const emu = emuResult.value;
  const env = childEnv({ FIREBASE_AUTH_EMULATOR_HOST: emu.host, FIREBASE_PROJECT_ID: projectId });
  if (postgres) {
    env.TEST_DATABASE_URL = postgres.url;
    delete env.TEST_PG_SKIP_REASON;
  } else {
    env.TEST_PG_SKIP_REASON = `SKIP_POSTGRES=${process.env.SKIP_POSTGRES} was set`;
    delete env.TEST_DATABASE_URL;
    console.warn(SKIPPED_POSTGRES);
  }
  console.log(
    `[with-emulator] auth emulator ${emu.host}${postgres ? `, PostgreSQL ${postgres.url} from ${postgres.description}` : ''} (ready in ${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
  if (interrupted) throw new Error(`interrupted by ${interrupted}`);

  const local = bin(command);
  const cmd = existsSync(local) ? local : command;
  child = spawn(cmd, args, { cwd: ROOT, env, stdio: 'inherit' });
  const code = await new Promise<number>((res) => {
    child!.once('error', (err) => {
      console.error(`[with-emulator] cannot run ${cmd}: ${err.message}`);
      res(127);
    });
    child!.once('exit', (c, signal) => res(c ?? (signal === 'SIGINT' ? 130 : signal === 'SIGTERM' ? 143 : 1)));
  });
  await cleanup();
  if (!postgres) console.warn(SKIPPED_POSTGRES);
  process.exit(code);
} catch (err) {
  console.error(`[with-emulator] ${(err as Error).message}`);
  await cleanup();
  process.exit(1);
}
