import { Box, Code, HStack, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { formatDate } from '../../../../domain/format.ts';
import { DownloadButton } from '../../../components/download-button.tsx';
import { formatSize } from './format.ts';
import { EmptyText } from './section-card.tsx';

export interface ListedFile {
  id: string;
  name: string;
  size: number;
  sha256: string;
  createdAt: string;
}

/**
 * Files with what staff need to vouch for them: size, date and the SHA-256 computed on upload, so a copy
 * handed to a bank or the police can be shown to be the one the client sent.
 */
export function FileList<F extends ListedFile>({ files, emptyText, label, extra }: { files: F[]; emptyText: string; label: string; extra?(file: F): ReactNode }) {
  if (files.length === 0) return <EmptyText>{emptyText}</EmptyText>;
  return (
    <Stack as="ul" gap="0" listStyleType="none" m="0" p="0" aria-label={label}>
      {files.map((file) => (
        <Box as="li" key={file.id} py="3" borderTopWidth="1px" borderColor="portal.border" _first={{ borderTopWidth: 0, pt: 0 }} data-testid="staff-file">
          <FileRow file={file} extra={extra?.(file)} />
        </Box>
      ))}
    </Stack>
  );
}

function FileRow({ file, extra }: { file: ListedFile; extra: ReactNode }) {
  return (
    <HStack justify="space-between" align="start" gap="3">
      <Stack gap="1" minWidth="0">
        <HStack gap="2" wrap="wrap">
          <Text fontWeight="medium" wordBreak="break-all">
            {file.name}
          </Text>
          {extra}
        </HStack>
        <Text fontSize="xs" color="fg.muted">
          {formatSize(file.size)} · {formatDate(file.createdAt)}
        </Text>
        <Text fontSize="xs" color="fg.muted">
          SHA-256{' '}
          <Code size="sm" variant="surface" wordBreak="break-all" whiteSpace="normal" data-testid="sha256">
            {file.sha256}
          </Code>
        </Text>
      </Stack>
      <DownloadButton name={file.name} path={`/staff/files/${encodeURIComponent(file.id)}`} />
    </HStack>
  );
}
