// The Chromium the end-to-end tests and benchmarks drive: CHROMIUM_PATH, else the system's (Debian's
// /usr/bin/chromium), else the build @sparticuz/chromium ships in node_modules (Linux x64), unpacked once
// into node_modules/.cache. TEST_BINARIES=bundled|system picks one side only (tests/support/test-binaries.ts).
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundledSupported, PLATFORM, resolvePackage, testBinariesMode } from './test-binaries.ts';

/**
 * Flags for every Chromium the tests start. Without them Chromium reaches for Google services, which
 * the closed network refuses. Playwright adds --headless itself; chrome-launcher users add their own.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface TestChromium {
  executablePath: string;
  args: string[];
  /** Environment for the browser process (the bundled build brings its own NSS libraries and fonts). */
  env?: Record<string, string>;
  source: 'CHROMIUM_PATH' | 'system' | 'bundled';
  /** For logs: which Chromium and where. */
  description: string;
}

const SYSTEM_PATHS = ['/usr/bin/chromium'];

export function missingChromiumMessage(why: string): string {
  return [
    `No Chromium for the end-to-end tests: ${why}.`,
    bundledSupported()
      ? 'Run `npm install` (it installs @sparticuz/chromium, a Chromium build for Linux x64), or install Chromium (`apt-get install chromium`) or set CHROMIUM_PATH=/path/to/chromium.'
      : `The npm-shipped Chromium only exists for Linux x64 and this is ${PLATFORM}: install Chromium or Google Chrome (e.g. \`brew install --cask chromium\` on macOS) and set CHROMIUM_PATH=/path/to/its/executable.`,
  ].join(' ');
}

export async function resolveChromium(): Promise<TestChromium> {
  const mode = testBinariesMode();
  if (mode !== 'bundled') {
    const fromEnv = process.env.CHROMIUM_PATH;
    if (fromEnv) {
      if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist.`);
      return { executablePath: fromEnv, args: CHROMIUM_FLAGS, source: 'CHROMIUM_PATH', description: `CHROMIUM_PATH ${fromEnv}` };
    }
    const system = SYSTEM_PATHS.find((p) => existsSync(p));
    if (system) return { executablePath: system, args: CHROMIUM_FLAGS, source: 'system', description: `system Chromium ${system}` };
    if (mode === 'system') throw new Error(missingChromiumMessage(`TEST_BINARIES=system and none at ${SYSTEM_PATHS.join(', ')}`));
  }
  if (!bundledSupported()) throw new Error(missingChromiumMessage(`none at ${SYSTEM_PATHS.join(', ')} and CHROMIUM_PATH is not set`));
  return bundledChromium();
}

/**
 * Unpacks @sparticuz/chromium into node_modules/.cache/sparticuz-chromium-<version>/ (about 3 s, once per
 * install) rather than its default of /tmp/chromium, which is shared by every checkout and version on the
 * machine and would be reused even if half-written. The unpacking goes to a staging directory renamed
 * into place when complete, so concurrent or interrupted runs never see a partial build.
 */
async function bundledChromium(): Promise<TestChromium> {
  const entry = resolvePackage('@sparticuz/chromium');
  if (!entry) throw new Error(missingChromiumMessage('@sparticuz/chromium is not installed in node_modules'));
  const pkgDir = join(dirname(entry), '..');
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const cacheRoot = join(pkgDir, '..', '..', '.cache');
  const dir = join(cacheRoot, `sparticuz-chromium-${version}`);
  const executablePath = join(dir, 'chromium');

  if (!existsSync(join(dir, '.complete'))) {
    mkdirSync(cacheRoot, { recursive: true });
    const staging = mkdtempSync(join(cacheRoot, `sparticuz-chromium-${version}.partial-`));
    try {
      const { inflate } = await import('@sparticuz/chromium');
      const bin = join(pkgDir, 'bin');
      // inflate() writes under os.tmpdir(), which it reads synchronously when called: point TMPDIR at
      // the staging directory for those calls only.
      const savedTmp = process.env.TMPDIR;
      process.env.TMPDIR = staging;
      let pending: Promise<string>[];
      try {
        // chromium.br -> chromium; fonts.tar.br -> fonts/; swiftshader.tar.br -> GL libraries at the top;
        // al2023.tar.br -> al2023/lib/ (NSS, NSPR, expat: the libraries the binary links that a bare
        // machine may not have).
        pending = ['chromium.br', 'fonts.tar.br', 'swiftshader.tar.br', 'al2023.tar.br'].map((f) => inflate(join(bin, f)));
      } finally {
        if (savedTmp === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = savedTmp;
      }
      await Promise.all(pending);
      // The shipped fonts.conf names /tmp/fonts; point it at this directory instead.
      writeFileSync(
        join(staging, 'fonts', 'fonts.conf'),
        `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, 'fonts', 'fonts')}</dir>\n  <cachedir>${join(dir, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
      );
      writeFileSync(join(staging, '.complete'), `${version}\n`);
      if (existsSync(dir) && !existsSync(join(dir, '.complete'))) rmSync(dir, { recursive: true, force: true });
      try {
        renameSync(staging, dir);
      } catch (err) {
        // Another run finished first: use its copy.
        if (!existsSync(join(dir, '.complete'))) throw err;
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }

  return {
    executablePath,
    // The same flags as the system's, not @sparticuz/chromium's own `args`: those are for AWS Lambda
    // (--single-process, --disable-web-security…) and would hide bugs such as CORS errors.
    args: CHROMIUM_FLAGS,
    env: {
      ...stringEnv(process.env),
      LD_LIBRARY_PATH: [join(dir, 'al2023', 'lib'), process.env.LD_LIBRARY_PATH].filter(Boolean).join(':'),
      FONTCONFIG_PATH: join(dir, 'fonts'),
    },
    source: 'bundled',
    description: `@sparticuz/chromium ${version} (${dir})`,
  };
}

function stringEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}
