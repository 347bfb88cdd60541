import { useCallback, useRef, useState } from 'react';

/**
 * Runs one task at a time: a second call while one runs is dropped (resolves to null), so a double click
 * sends once. `running` drives the button's spinner.
 */
export function useOneAtATime(): { running: boolean; once<T>(task: () => Promise<T>): Promise<T | null> } {
  const [running, setRunning] = useState(false);
  // A ref as well as state: two clicks in one frame both see the state as it was before the first.
  const busy = useRef(false);
  const once = useCallback(async <T>(task: () => Promise<T>): Promise<T | null> => {
    if (busy.current) return null;
    busy.current = true;
    setRunning(true);
    try {
      return await task();
    } finally {
      busy.current = false;
      setRunning(false);
    }
  }, []);
  return { running, once };
}
