import { Button, Stack, Text } from '@chakra-ui/react';
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { clientExportFileName } from '../../../../domain/client-export.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { downloadApiFile } from '../../../lib/save-file.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../../../lib/use-online-action.ts';
import { OfflineHint } from '../shared/offline-hint.tsx';

/**
 * Downloads the data the portal holds on a client as one JSON file (GET /api/staff/clients/:uid/export). The server
 * wants a second factor verified within 5 minutes: its 403 STEP_UP_REQUIRED opens the layout's step-up dialog and the
 * download is asked once more (useOnlineAction); cancelled, nothing happens. A failure stays written under the button
 * until the next try.
 */
export function ExportDataButton({ uid, name }: { uid: string; name: string }) {
  const { running, run } = useOnlineAction();
  const online = useOnline();
  const [failure, setFailure] = useState<string | null>(null);

  async function exportData() {
    setFailure(null);
    const outcome = await run(() => downloadApiFile(`/staff/clients/${encodeURIComponent(uid)}/export`, clientExportFileName(uid, new Date())));
    if (!outcome) return; // step-up cancelled, or already running
    if (outcome.ok) showMessage(`${name}'s data is downloaded.`, 'success');
    else if (!outcome.offline) setFailure(`The export failed: ${failureText(outcome.error)}`);
  }

  return (
    <Stack gap="2" align="start">
      <Button variant="outline" colorPalette="brand" loading={running} loadingText="Exporting…" disabled={!online} onClick={() => void exportData()}>
        <FileDown size={18} aria-hidden="true" />
        Export client data
      </Button>
      {!online && <OfflineHint />}
      {failure && (
        <Text role="alert" color="red.600" fontSize="sm">
          {failure}
        </Text>
      )}
    </Stack>
  );
}
