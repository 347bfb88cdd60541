import path from 'node:path';
import { z } from 'zod';

/** Environment, validated once at start-up, as epic-stack does: bad config fails loudly. */
const Env = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(1).max(65535).default(8080),
    HOST: z.string().default('0.0.0.0'),
    DATA_DIR: z.string().default('data'),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL').optional(),
    STATIC_DIR: z.string().default('dist'),
    FIREBASE_PROJECT_ID: z.string().min(1).default('demo-portal'),
    FIREBASE_AUTH_EMULATOR_HOST: z.string().optional(),
    /** The Firebase web API key the browser SDK and the set-password email call use; any value works with the emulator. */
    FIREBASE_WEB_API_KEY: z.string().min(1).default('emulator-key'),
    /** Secret for signed download links; derived from the project id in development. */
    DOWNLOAD_SECRET: z.string().min(16).optional(),
    UPLOAD_MAX_BYTES: z.coerce.number().int().positive().default(10 * 1024 * 1024),
    PUBLIC_URL: z.string().url().optional(),
    /** Proxy addresses whose X-Forwarded-For is believed (comma-separated); none by default, so rate limits can't be dodged. */
    TRUST_PROXY: z.string().optional(),
    /** Test-only fault injection (server/plugins/faults.ts) for the offline and chaos tests. */
    TEST_FAULTS: z.enum(['0', '1']).default('0'),
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    if (env.FIREBASE_AUTH_EMULATOR_HOST) {
      ctx.addIssue({ code: 'custom', path: ['FIREBASE_AUTH_EMULATOR_HOST'], message: 'emulator settings are not allowed in production' });
    }
    if (env.FIREBASE_WEB_API_KEY === 'emulator-key') {
      ctx.addIssue({ code: 'custom', path: ['FIREBASE_WEB_API_KEY'], message: 'the Firebase web API key of the project is required in production' });
    }
    if (env.FIREBASE_PROJECT_ID.startsWith('demo-')) {
      ctx.addIssue({ code: 'custom', path: ['FIREBASE_PROJECT_ID'], message: 'a demo- project is emulator-only and not allowed in production' });
    }
    if (env.TEST_FAULTS === '1') {
      ctx.addIssue({ code: 'custom', path: ['TEST_FAULTS'], message: 'fault injection is not allowed in production' });
    }
    if (!env.DOWNLOAD_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['DOWNLOAD_SECRET'], message: 'DOWNLOAD_SECRET is required in production' });
    }
  });

export type Config = z.infer<typeof Env> & { downloadSecret: string; pgliteDir: string; filesDir: string };

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const cfg = parsed.data;
  return {
    ...cfg,
    downloadSecret: cfg.DOWNLOAD_SECRET ?? `dev-only-secret-${cfg.FIREBASE_PROJECT_ID}`,
    pgliteDir: path.resolve(cfg.DATA_DIR, 'pglite'),
    filesDir: path.resolve(cfg.DATA_DIR, 'files'),
  };
}
