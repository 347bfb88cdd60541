import { Box, IconButton, Menu, Portal, Spinner, Tooltip } from '@chakra-ui/react';
import { CircleAlert, Download, EllipsisVertical, FileText, Radar, Undo2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { texts } from '../../../../domain/texts.ts';
import { iconSize } from '../../../components/theme-tokens.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { saveFinalFile, useFinalFileLink } from './use-final-file-link.ts';
import { toolOf } from './use-requests.ts';

export type RowAction = 'details' | 'refund' | 'live';

function WithTooltip({ text, children }: { text: string | null; children: ReactNode }) {
  if (!text) return <>{children}</>;
  return (
    <Tooltip.Root openDelay={100} positioning={{ placement: 'left' }}>
      <Tooltip.Trigger asChild>
        <Box as="span" display="flex" alignItems="center" gap="2" width="100%">
          {children}
        </Box>
      </Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content maxWidth="260px">{text}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}

/** The row's action menu; what it offers depends on the status (spec section 4). */
export function RowActionsMenu({ request, onAction }: { request: LocalRequest; onAction(action: RowAction): void }) {
  const online = useOnline();
  const { state: link, refreshIfStale } = useFinalFileLink(request, online);
  const tool = toolOf(request);
  // A row not sent yet has no server id to act on; a rejected request has nothing to offer.
  const disabled = request.status === 'Rejected' || !!request.pending;
  const isDone = request.status === 'Done';
  const canRefund = request.status === 'In Progress' || isDone;

  let downloadHint: string | null = null;
  let downloadIcon = <Download size={iconSize} aria-hidden="true" />;
  if (link.kind === 'unpaid') {
    downloadHint = texts.downloadTooltip;
    downloadIcon = <CircleAlert size={iconSize} aria-hidden="true" color="var(--chakra-colors-red-600)" data-testid="download-error-icon" />;
  } else if (link.kind === 'error') {
    downloadHint = link.message;
    downloadIcon = <CircleAlert size={iconSize} aria-hidden="true" color="var(--chakra-colors-red-600)" />;
  } else if (link.kind !== 'ready' && !online) {
    downloadHint = texts.needsConnection;
  } else if (link.kind === 'loading' || link.kind === 'idle') {
    downloadIcon = <Spinner size="xs" aria-hidden="true" />;
  }

  return (
    <Menu.Root
      positioning={{ placement: 'bottom-end' }}
      onOpenChange={(e) => {
        if (e.open) refreshIfStale();
      }}
    >
      <Menu.Trigger asChild disabled={disabled}>
        <IconButton aria-label="Actions" variant="ghost" size="sm" disabled={disabled}>
          <EllipsisVertical size={iconSize} aria-hidden="true" />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="200px">
            <Menu.Item value="details" onSelect={() => onAction('details')}>
              <FileText size={iconSize} aria-hidden="true" />
              Request Details
            </Menu.Item>
            {canRefund && (
              <Menu.Item value="refund" onSelect={() => onAction('refund')}>
                <Undo2 size={iconSize} aria-hidden="true" />
                {isDone ? 'Refund Request' : 'Refund'}
              </Menu.Item>
            )}
            {isDone &&
              (link.kind === 'ready' ? (
                <Menu.Item value="download" asChild>
                  <a
                    href={link.link}
                    download
                    onClick={(event) => {
                      event.preventDefault();
                      void saveFinalFile(link.link);
                    }}
                  >
                    {downloadIcon}
                    Download File
                  </a>
                </Menu.Item>
              ) : (
                <Menu.Item value="download" disabled>
                  <WithTooltip text={downloadHint}>
                    {downloadIcon}
                    Download File
                  </WithTooltip>
                </Menu.Item>
              ))}
            {tool?.id === 'track-master' && (
              <Menu.Item value="live" onSelect={() => onAction('live')}>
                <Radar size={iconSize} aria-hidden="true" />
                Live Details
              </Menu.Item>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
