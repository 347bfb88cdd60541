import { z } from 'zod';

/** Runtime settings the server writes into index.html, so one build runs against any environment. */
const ClientConfig = z.object({
  projectId: z.string().default('demo-portal'),
  apiKey: z.string().default('emulator-key'),
  authDomain: z.string().default('demo-portal.firebaseapp.com'),
  authEmulatorHost: z.string().nullable().default(null),
});
export type ClientConfig = z.infer<typeof ClientConfig>;

export function readClientConfig(doc: Document = document): ClientConfig {
  const raw = doc.querySelector('meta[name="portal-config"]')?.getAttribute('content') ?? '{}';
  let value: unknown = {};
  try {
    value = JSON.parse(raw);
  } catch {
    value = {};
  }
  const parsed = ClientConfig.safeParse(value);
  // Vite's dev server serves index.html untouched: fall back to the local emulator.
  const config = parsed.success ? parsed.data : ClientConfig.parse({});
  if (!config.authEmulatorHost && import.meta.env.DEV) return { ...config, authEmulatorHost: '127.0.0.1:9099' };
  return config;
}
