// Which stack a Playwright worker talks to: worker n (TEST_PARALLEL_INDEX, kept by a worker that replaces a
// failed one) uses stack n, started by global-setup.ts on E2E_PORT + n and E2E_AUTH_PORT + n, with its mail inbox
// on E2E_SMTP_PORT + n (SMTP) and E2E_INBOX_PORT + n (page and /api/messages).
// Overridable so several test runs can share one machine.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const E2E_AUTH_PORT = Number(process.env.E2E_AUTH_PORT ?? 9299);
// The inbox's ports follow E2E_PORT unless given, so a run moved to other ports moves its inboxes too.
export const E2E_INBOX_PORT = Number(process.env.E2E_INBOX_PORT ?? E2E_PORT + 100);
export const E2E_SMTP_PORT = Number(process.env.E2E_SMTP_PORT ?? E2E_PORT + 200);
/** The e2e stacks' email wait: long enough to open the app first, short enough to wait for. */
export const E2E_EMAIL_DELAY_SECONDS = 6;
/**
 * Specs run two at a time on two stacks. The machine's two cores are then busy: each spec takes about 1.4 times as
 * long as alone, so two of them finish in about 0.7 of the time one after the other (decision 028).
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

export const stackIndex = () => Number(process.env.TEST_PARALLEL_INDEX ?? 0);

/** The mail inbox of stack `index` (this worker's by default): its page; GET /api/messages lists what arrived. */
export const inboxOf = (index = stackIndex()) => `http://localhost:${E2E_INBOX_PORT + index}`;
