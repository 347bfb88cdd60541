import { useState } from 'react';
import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { FolderOpen, Upload } from 'lucide-react';
import type { UserFile } from '../../../../domain/schemas.ts';
import { formatDate } from '../../../../domain/format.ts';
import { texts } from '../../../../domain/texts.ts';
import { DownloadButton } from '../../../components/download-button.tsx';
import { ListCard } from '../../../components/list-card.tsx';
import { iconSize } from '../../../components/theme-tokens.ts';
import { useReplica } from '../../../lib/replica.ts';
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
        empty={{ icon: <FolderOpen size={iconSize} />, text: texts.nothingFound }}
        renderItem={(file) => <FileItem file={file} />}
      />
      <UploadFilesModal open={uploadOpen} onClose={() => setUploadOpen(false)} />
    </>
  );
}

function FileItem({ file }: { file: UserFile }) {
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
      <DownloadButton name={file.name} path={`/user/files/${encodeURIComponent(file.id)}`} />
    </HStack>
  );
}
