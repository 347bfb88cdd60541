import { useState } from 'react';
import { Box, Button, Card, Center, EmptyState, Heading, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useLiveQuery } from 'dexie-react-hooks';
import { Download, FolderOpen, Upload } from 'lucide-react';
import type { UserFile } from '../../../domain/schemas.ts';
import { formatDate } from '../../../domain/format.ts';
import { texts } from '../../../domain/texts.ts';
import { NetworkError, apiRequest, toApiError } from '../../lib/api.ts';
import { useReplica } from '../../lib/replica.ts';
import { showMessage } from '../../lib/ui-state.ts';
import { formatSize } from './upload-file.ts';
import { UploadFilesModal } from './upload-files-modal.tsx';

/** My files: the general files this user uploaded (the sync feed fills Dexie), each downloadable. */
export function FilesPage() {
  const db = useReplica();
  const files = useLiveQuery(() => db.files.orderBy('createdAt').reverse().toArray(), [db]);
  const [uploadOpen, setUploadOpen] = useState(false);

  return (
    <Card.Root variant="elevated" bg="portal.white">
      <Card.Header>
        <HStack justify="space-between" gap="3" wrap="wrap">
          <Heading as="h1" textStyle="h1">
            My files
          </Heading>
          <Button size="sm" colorPalette="brand" onClick={() => setUploadOpen(true)}>
            <Upload size={18} /> Upload Files
          </Button>
        </HStack>
      </Card.Header>
      <Card.Body pt="2">
        {files === undefined ? (
          <Center py="10">
            <Spinner color="brand.solid" aria-label="Loading files" />
          </Center>
        ) : files.length === 0 ? (
          <EmptyState.Root size="sm">
            <EmptyState.Content>
              <EmptyState.Indicator>
                <FolderOpen size={22} />
              </EmptyState.Indicator>
              <EmptyState.Description color="fg">{texts.nothingFound}</EmptyState.Description>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Stack as="ul" gap="0" listStyleType="none" m="0" p="0">
            {files.map((file) => (
              <FileItem key={file.id} file={file} />
            ))}
          </Stack>
        )}
      </Card.Body>
      <UploadFilesModal open={uploadOpen} onClose={() => setUploadOpen(false)} />
    </Card.Root>
  );
}

function FileItem({ file }: { file: UserFile }) {
  const [busy, setBusy] = useState(false);
  return (
    <Box as="li" py="3" borderTopWidth="1px" borderColor="portal.border" data-testid="file-row">
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
    </Box>
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
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = file.name;
    document.body.append(a);
    a.click();
    a.remove();
    // Revoked later: some browsers read the URL after click() returns.
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  } catch (err) {
    if (err instanceof NetworkError) showMessage(texts.needsConnection, 'warning');
    else showMessage(err instanceof Error && err.message ? err.message : texts.somethingWentWrong, 'error');
  }
}
