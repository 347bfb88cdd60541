import { useEffect } from 'react';
import { setLoading } from '../lib/ui-state.ts';

/** /loading: the full-screen loader on its own. */
export function LoadingPage() {
  useEffect(() => {
    setLoading(true, 'full');
    return () => setLoading(false);
  }, []);
  return null;
}
