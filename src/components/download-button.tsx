import { Box, Button } from '@chakra-ui/react';
import { Download } from 'lucide-react';
import { downloadApiFile } from '../lib/save-file.ts';
import { showMessage } from '../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../lib/use-online-action.ts';

/** A file's Download button (My files, a client's files for staff): online only, spinning while it loads. */
export function DownloadButton({ name, path }: { name: string; path: string }) {
  const { running, run } = useOnlineAction();

  async function download() {
    const outcome = await run(() => downloadApiFile(path, name));
    if (outcome && !outcome.ok && !outcome.offline) showMessage(failureText(outcome.error), 'error');
  }

  return (
    <Button size="sm" variant="outline" colorPalette="brand" flexShrink={0} loading={running} aria-label={`Download ${name}`} onClick={() => void download()}>
      <Download size={18} aria-hidden="true" />
      <Box as="span" display={{ base: 'none', sm: 'inline' }}>
        Download
      </Box>
    </Button>
  );
}
