/**
 * A bounded in-process queue between the capture route and the database: the visitor's answer is
 * sent before the visit is written, so a slow or locked database never slows the redirect. When the
 * queue is full (the database has fallen far behind, or a flood got past the rate limits) new visits
 * are dropped with a warning rather than held in memory without bound. A visit still queued when the
 * process dies is lost; close() drains what is queued before the database closes.
 */
export interface WorkQueue<T> {
  /** False when the queue is full or closed: the item was dropped. */
  push(item: T): boolean;
  readonly size: number;
  /** Resolves when nothing is queued or running (tests, shutdown). */
  idle(): Promise<void>;
  /** Stops accepting items and waits for the queued ones, at most `timeoutMs`. */
  close(timeoutMs?: number): Promise<void>;
}

export interface WorkQueueOptions<T> {
  capacity: number;
  /** Items written at once: the seq advisory lock serialises capture transactions anyway, so 1–2 is enough. */
  concurrency: number;
  worker(item: T): Promise<void>;
  onDrop(item: T): void;
  onError(err: unknown, item: T): void;
}

export function createWorkQueue<T>(options: WorkQueueOptions<T>): WorkQueue<T> {
  const items: T[] = [];
  let running = 0;
  let closed = false;
  let waiters: (() => void)[] = [];

  const settle = () => {
    if (items.length > 0 || running > 0) return;
    const done = waiters;
    waiters = [];
    for (const resolve of done) resolve();
  };

  const pump = () => {
    while (running < options.concurrency && items.length > 0) {
      const item = items.shift() as T;
      running++;
      void options
        .worker(item)
        .catch((err: unknown) => options.onError(err, item))
        .finally(() => {
          running--;
          pump();
          settle();
        });
    }
  };

  return {
    push(item) {
      if (closed || items.length >= options.capacity) {
        options.onDrop(item);
        return false;
      }
      items.push(item);
      // After the current tick: the route's answer goes out before any write starts.
      setImmediate(pump);
      return true;
    },
    get size() {
      return items.length + running;
    },
    idle() {
      if (items.length === 0 && running === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
    async close(timeoutMs = 5000) {
      closed = true;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.idle(), new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs).unref()))]);
      clearTimeout(timer);
    },
  };
}
