import { IconButton } from '@chakra-ui/react';
import { RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { texts } from '../../../../domain/texts.ts';
import { iconSize } from '../../../components/theme-tokens.ts';
import { useSyncEngine } from '../../../lib/sync/use-sync-engine.ts';
import { showMessage } from '../../../lib/ui-state.ts';

/** Pulls the replica again; a pull that reached the server and failed says so (offline, the device copy simply stays). */
export function RefreshRequestsButton() {
  const engine = useSyncEngine();
  const [refreshing, setRefreshing] = useState(false);

  async function refresh() {
    setRefreshing(true);
    try {
      if (await engine.requestPull()) showMessage(texts.dashboardLoadFailed, 'error');
    } finally {
      setRefreshing(false);
    }
  }

  return (
    <IconButton aria-label="Refresh requests" variant="ghost" size="sm" loading={refreshing} onClick={() => void refresh()}>
      <RefreshCw size={iconSize} aria-hidden="true" />
    </IconButton>
  );
}
