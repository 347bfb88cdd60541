/** A job the server runs at start and then on a timer, until stop(). */
export interface PeriodicJob {
  /** Clears the timer and waits for a run in progress, so the database is not closed under it. */
  stop(): Promise<void>;
}

/**
 * Runs `work` at once and then every `everyMs`. One run at a time: a tick during a slow run is skipped, not
 * stacked. A failed run goes to `onError` and the next tick runs again. The timer is unref'd, so it never keeps
 * the process alive.
 */
export function startPeriodicJob(work: () => Promise<void>, opts: { everyMs: number; onError: (err: unknown) => void }): PeriodicJob {
  let running: Promise<void> | undefined;
  const run = () => {
    running ??= work()
      .catch(opts.onError)
      .finally(() => (running = undefined));
  };
  run();
  const timer = setInterval(run, opts.everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
