import { Box, IconButton, Menu, Portal, Spinner, Stack, Text, Tooltip } from '@chakra-ui/react';
import { CircleAlert, Download, EllipsisVertical, FileText, Radar, Undo2 } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { texts } from '../../../../domain/texts.ts';
import { requestRef } from '../../../../domain/tools.ts';
import { iconSize } from '../../../components/theme-tokens.ts';
import type { LocalRequest } from '../../../lib/db.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { type LinkState, useFinalFileLink } from './use-final-file-link.ts';
import { toolOf } from './use-requests.ts';

/** 'pay' is opened by the row's own How to pay button: the menu keeps the items spec section 4 lists. */
export type RowAction = 'details' | 'refund' | 'live' | 'pay';

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
  // The final-file link is asked for only while this menu is open, never when the row mounts.
  const [menuOpen, setMenuOpen] = useState(false);
  const { state: link, download } = useFinalFileLink(request, online, menuOpen);
  const tool = toolOf(request);
  const ref = requestRef(request);
  // A row not sent yet has no server id to act on; a rejected request has nothing to offer.
  const disabled = request.status === 'Rejected' || !!request.pending;
  const isDone = request.status === 'Done';
  const canRefund = request.status === 'In Progress' || isDone;

  return (
    <Menu.Root positioning={{ placement: 'bottom-end' }} onOpenChange={(e) => setMenuOpen(e.open)}>
      <Menu.Trigger asChild disabled={disabled}>
        <IconButton aria-label={ref ? `Actions for ${ref}` : 'Actions'} variant="ghost" size="sm" disabled={disabled}>
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
            {isDone && <DownloadItem link={link} onDownload={download} />}
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

/**
 * Download File (spec section 4): enabled with a fresh link; refused with the error icon and the
 * spec's tooltip while not paid in full; a spinner while the link is asked for; a failure says why
 * in the item itself, so it reads without hovering (and on touch screens).
 */
function DownloadItem({ link, onDownload }: { link: LinkState; onDownload(): Promise<void> }) {
  if (link.kind === 'ready') {
    return (
      <Menu.Item value="download" asChild>
        <a
          href={link.link}
          download
          onClick={(event) => {
            event.preventDefault();
            void onDownload();
          }}
        >
          <Download size={iconSize} aria-hidden="true" />
          Download File
        </a>
      </Menu.Item>
    );
  }
  if (link.kind === 'unpaid') {
    return (
      <Menu.Item value="download" disabled>
        <WithTooltip text={texts.downloadTooltip}>
          <CircleAlert size={iconSize} aria-hidden="true" color="var(--chakra-colors-red-600)" data-testid="download-error-icon" />
          Download File
        </WithTooltip>
      </Menu.Item>
    );
  }
  if (link.kind === 'error') {
    return (
      <Menu.Item value="download" disabled alignItems="flex-start">
        <CircleAlert size={iconSize} aria-hidden="true" color="var(--chakra-colors-red-600)" style={{ flexShrink: 0, marginTop: 2 }} />
        <Stack gap="0.5" maxWidth="240px">
          <span>Download File</span>
          <Text fontSize="xs" color="red.600" whiteSpace="normal" data-testid="download-error">
            {link.message}
          </Text>
        </Stack>
      </Menu.Item>
    );
  }
  // Idle only for the moment between the menu opening and the request leaving.
  return (
    <Menu.Item value="download" disabled aria-busy="true">
      <Spinner size="xs" aria-hidden="true" />
      Download File
    </Menu.Item>
  );
}
