import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { apiGet } from '../../../lib/api.ts';

export interface StaffQuery<T> {
  /** The last answer for this path; kept while a reload runs, so the page does not blink after an action. */
  data: T | undefined;
  /** The last failure for this path, cleared by the next success. */
  error: unknown;
  loading: boolean;
  reload(): void;
}

interface Answer<T> {
  path: string;
  data?: T;
  error?: unknown;
  /** Which fetch produced it: `loading` is simply "the latest fetch has not answered yet". */
  run: number;
}

/**
 * Reads a staff endpoint straight from the server. The workspace is online-only and shows other
 * people's data, so nothing of it goes into the device replica. `schema` must be a stable (module-level) value.
 */
export function useStaffQuery<S extends z.ZodType>(path: string, schema: S): StaffQuery<z.infer<S>> {
  const [run, setRun] = useState(0);
  const [answer, setAnswer] = useState<Answer<z.infer<S>>>({ path: '', run: -1 });

  useEffect(() => {
    const controller = new AbortController();
    apiGet(path, schema, { signal: controller.signal }).then(
      (data) => setAnswer({ path, data, run }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        // A failed reload keeps what was shown, with the error beside it.
        setAnswer((prev) => ({ path, data: prev.path === path ? prev.data : undefined, error, run }));
      },
    );
    return () => controller.abort();
  }, [path, schema, run]);

  const reload = useCallback(() => setRun((r) => r + 1), []);

  const current = answer.path === path;
  return {
    data: current ? answer.data : undefined,
    error: current ? answer.error : undefined,
    loading: !current || answer.run !== run,
    reload,
  };
}
