import { useEffect, useState } from 'react';
import { type PushEnv, type PushPermission, browserPushEnv, isPushWanted } from './push.ts';
import { useReplica } from './replica.ts';
import { useLiveQuery } from './use-live-query.ts';

/**
 * This device's push as a screen shows it: the browser's objects, what it allows (null until it answers, `recheck`
 * after a prompt) and whether the person turned push on here (undefined while the replica is read).
 */
export function usePushDevice(): { env: PushEnv; permission: PushPermission | null; wanted: boolean | undefined; recheck: () => Promise<void> } {
  const db = useReplica();
  const [env] = useState(browserPushEnv);
  const [permission, setPermission] = useState<PushPermission | null>(null);
  useEffect(() => {
    let live = true;
    void env.permission().then((p) => live && setPermission(p));
    return () => {
      live = false;
    };
  }, [env]);
  const wanted = useLiveQuery(() => isPushWanted(db), [db]);
  // After the prompt: what the person answered.
  const recheck = async () => setPermission(await env.permission());
  return { env, permission, wanted, recheck };
}
