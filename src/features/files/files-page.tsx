import { useState } from 'react';
import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { Download, FolderOpen, Upload } from 'lucide-react';
import type { UserFile } from '../../../domain/schemas.ts';
import { formatDate } from '../../../domain/format.ts';
import { texts } from '../../../domain/texts.ts';
import { ListCard } from '../../components/list-card.tsx';
import { NetworkError, apiRequest, toApiError } from '../../lib/api.ts';
import { useReplica } from '../../lib/replica.ts';
import { saveBlob } from '../../lib/save-file.ts';
import { showMessage } from '../../lib/ui-state.ts';
import { formatSize } from './upload-file.ts';
import { UploadFilesModal } from './upload-files-modal.tsx';

/** My files: the general files this user uploaded (the sync feed fills Dexie), each downloadable. */
export function FilesPage() {
  const db = useReplica();
  const files = useLiveQuery(() => db.files.orderBy('createdAt').reverse().toArray(), [db]);
  const [uploadOpen, setUploadOpen] = useState(false);

  return (
    <>
      <ListCard
        title="My files"
        items={files}
        loadingLabel="Loading files"
        itemTestId="file-row"
        actions={
          <Button size="sm" colorPalette="brand" onClick={() => setUploadOpen(true)}>
            <Upload size={18} /> Upload Files
          </Button>
        }
        empty={{ icon: <FolderOpen size={22} />, text: texts.nothingFound }}
        renderItem={(file) => <FileItem file={file} />}
      />
      <UploadFilesModal open={uploadOpen} onClose={() => setUploadOpen(false)} />
    </>
  );
}

function FileItem({ file }: { file: UserFile }) {
  const [busy, setBusy] = useState(false);
  return (
    <HStack justify="space-between" gap="3">
      <Box minWidth="0">
        <Text fontWeight="medium" truncate title={file.name}>
          {file.name}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          {formatSize(file.size)} · {formatDate(file.createdAt)}
        </Text>
      </Box>
      <Button
        size="sm"
        variant="outline"
        colorPalette="brand"
        flexShrink={0}
        loading={busy}
        aria-label={`Download ${file.name}`}
        onClick={() => {
          setBusy(true);
          void downloadFile(file).finally(() => setBusy(false));
        }}
      >
        <Download size={18} />
        <Box as="span" display={{ base: 'none', sm: 'inline' }}>
          Download
        </Box>
      </Button>
    </HStack>
  );
}

/** The download needs the bearer token, so it is fetched and saved as a blob rather than linked. */
export async function downloadFile(file: Pick<UserFile, 'id' | 'name'>): Promise<void> {
  if (navigator.onLine === false) {
    showMessage(texts.needsConnection, 'warning');
    return;
  }
  try {
    const res = await apiRequest(`/user/files/${encodeURIComponent(file.id)}`);
    if (!res.ok) {
      const payload: unknown = await res.json().catch(() => null);
      throw toApiError(res.status, payload);
    }
    saveBlob(await res.blob(), file.name);
  } catch (err) {
    if (err instanceof NetworkError) showMessage(texts.needsConnection, 'warning');
    else showMessage(err instanceof Error && err.message ? err.message : texts.somethingWentWrong, 'error');
  }
}
