/** Runtime settings the server writes into index.html, so one build runs against any environment. */
export interface ClientConfig {
  projectId: string;
  apiKey: string;
  authDomain: string;
  authEmulatorHost: string | null;
}

const defaults: ClientConfig = { projectId: 'demo-portal', apiKey: 'emulator-key', authDomain: 'demo-portal.firebaseapp.com', authEmulatorHost: null };

/**
 * The settings checked by hand, not with zod: this module is on /login's first load (through Firebase), and there
 * zod was the only user of its 26 kB chunk, whose evaluation was one of the page's long tasks (docs/decisions/020,
 * third pass). The rules are the zod object's it replaces (config.test.ts compares the two): each field a string
 * or absent (then its default; the emulator host may be null), other keys dropped, and anything else rejects the
 * whole value, which then gives the defaults.
 */
export function parseClientConfig(value: unknown): ClientConfig {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return defaults;
  const v = value as Record<string, unknown>;
  const text = (key: 'projectId' | 'apiKey' | 'authDomain') => (v[key] === undefined ? defaults[key] : typeof v[key] === 'string' ? v[key] : undefined);
  const projectId = text('projectId');
  const apiKey = text('apiKey');
  const authDomain = text('authDomain');
  const host = v.authEmulatorHost;
  const authEmulatorHost = host === undefined || host === null ? null : typeof host === 'string' ? host : undefined;
  if (projectId === undefined || apiKey === undefined || authDomain === undefined || authEmulatorHost === undefined) return defaults;
  return { projectId, apiKey, authDomain, authEmulatorHost };
}

export function readClientConfig(doc: Document = document): ClientConfig {
  const raw = doc.querySelector('meta[name="portal-config"]')?.getAttribute('content') ?? '{}';
  let value: unknown = {};
  try {
    value = JSON.parse(raw);
  } catch {
    value = {};
  }
  const config = parseClientConfig(value);
  // Vite's dev server serves index.html untouched: fall back to the local emulator.
  if (!config.authEmulatorHost && import.meta.env.DEV) return { ...config, authEmulatorHost: '127.0.0.1:9099' };
  return config;
}
