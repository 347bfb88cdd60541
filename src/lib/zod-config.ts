// The portal's Content-Security-Policy forbids eval. Zod compiles fast object checks with `new Function` when it
// can, and merely trying is reported by the browser as a CSP violation (Lighthouse's best practices). Zod reads its
// settings from this global (what `z.config({ jitless: true })` writes); writing it here rather than calling
// z.config keeps zod itself off the first load. Set before any schema is built: main.tsx imports this module first.
// zod-config.test.ts checks that zod still reads the setting from here.
const zodGlobal = globalThis as { __zod_globalConfig?: Record<string, unknown> };
// Mutated, not replaced: a zod already loaded holds on to this very object.
(zodGlobal.__zod_globalConfig ??= {}).jitless = true;
