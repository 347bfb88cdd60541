// Which stack a Playwright worker talks to: worker n (TEST_PARALLEL_INDEX, kept by a worker that replaces a
// failed one) uses stack n, started by global-setup.ts on E2E_PORT + n and E2E_AUTH_PORT + n.
// Overridable so several test runs can share one machine.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_AUTH_PORT = Number(process.env.E2E_AUTH_PORT ?? 9299);
/**
 * Specs run two at a time on two stacks: most of a spec's time is spent waiting (for the network it cuts, a
 * retry's backoff, a live update), so two share the 2-core machine's time well.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

export const stackIndex = () => Number(process.env.TEST_PARALLEL_INDEX ?? 0);

export const stackEnvNames = (index: number) => ({
  baseUrl: `E2E_BASE_URL_${index}`,
  authHost: `E2E_AUTH_HOST_${index}`,
  dataDir: `E2E_DATA_DIR_${index}`,
});
