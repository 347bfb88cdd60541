import { Box, IconButton, Menu, Portal, Spinner, Tooltip } from '@chakra-ui/react';
import { CircleAlert, Download, EllipsisVertical, FileText, Radar, Undo2 } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { z } from 'zod';
import { texts } from '../../../domain/texts.ts';
import { ApiError, NetworkError, apiGet } from '../../lib/api.ts';
import type { LocalRequest, PortalDb } from '../../lib/db.ts';
import { useReplica } from '../../lib/replica.ts';
import { dispositionName, saveBlob } from '../../lib/save-file.ts';
import { showMessage } from '../../lib/ui-state.ts';
import { ICON_SIZE } from './tool-icon.tsx';
import { hasSavedCopy, useOnline } from '../../lib/pwa.ts';
import { toolOf } from './use-requests.ts';

export type RowAction = 'details' | 'refund' | 'live';

type LinkState =
  | { kind: 'idle' }
  | { kind: 'loading' }
  | { kind: 'ready'; link: string; fetchedAt: number }
  | { kind: 'unpaid' }
  | { kind: 'error'; message: string };

/** Signed links live 15 minutes on the server; refresh a little earlier so a click never gets an expired one. */
const LINK_FRESH_MS = 10 * 60 * 1000;

const linkKey = (requestId: string) => `finalFileLink:${requestId}`;

/** The last link of a request whose file the service worker saved: offline, it still opens that copy. */
async function savedLink(db: PortalDb, requestId: string): Promise<string | null> {
  const link = (await db.meta.get(linkKey(requestId)))?.value;
  return typeof link === 'string' && (await hasSavedCopy(link)) ? link : null;
}

/**
 * The final-file link of a Done request, fetched when the row is Done (and again when it has gone
 * stale). Online, a fresh short-lived signed link; offline, the copy downloaded earlier, if any.
 */
function useFileLink(request: LocalRequest, online: boolean) {
  const db = useReplica();
  const [state, setState] = useState<LinkState>({ kind: 'idle' });
  const toolId = toolOf(request)?.id;
  const wanted = request.status === 'Done' && !request.pending && !!toolId;

  const load = useCallback(() => {
    if (!wanted) return () => undefined;
    let cancelled = false;
    if (!online) {
      void savedLink(db, request.id).then((link) => !cancelled && setState(link ? { kind: 'ready', link, fetchedAt: Date.now() } : { kind: 'idle' }));
      return () => {
        cancelled = true;
      };
    }
    setState((s) => (s.kind === 'ready' ? s : { kind: 'loading' }));
    apiGet(`/${toolId}/${request.id}/file`, z.string())
      .then((link) => {
        if (cancelled) return;
        setState({ kind: 'ready', link, fetchedAt: Date.now() });
        // Signed out meanwhile: the replica is closed, nothing to remember.
        db.meta.put({ key: linkKey(request.id), value: link }).catch(() => undefined);
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        if (err instanceof ApiError && err.code === 'NOT_FULLY_PAID') setState({ kind: 'unpaid' });
        else if (err instanceof NetworkError) setState({ kind: 'idle' });
        else setState({ kind: 'error', message: err instanceof ApiError ? err.message : texts.somethingWentWrong });
      });
    return () => {
      cancelled = true;
    };
    // paid/leftToPay are in the deps so a payment arriving through sync fetches the link again.
  }, [wanted, online, toolId, request.id, db]);

  useEffect(load, [load, request.paid, request.leftToPay]);

  const refreshIfStale = () => {
    if (state.kind === 'ready' && Date.now() - state.fetchedAt > LINK_FRESH_MS) load();
  };
  return { state, refreshIfStale };
}

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

/**
 * Fetched from the page rather than followed as a link: a fetch always passes through the service
 * worker, which keeps the file, so the same menu item opens the saved copy offline.
 */
async function saveFinalFile(link: string): Promise<void> {
  try {
    const res = await fetch(link);
    if (!res.ok) throw new Error(String(res.status));
    saveBlob(await res.blob(), dispositionName(res.headers.get('content-disposition'), 'final-report.pdf'));
  } catch {
    showMessage(navigator.onLine ? texts.somethingWentWrong : texts.needsConnection, 'error');
  }
}

/** The row's action menu; what it offers depends on the status (spec section 4). */
export function RowActionsMenu({ request, onAction }: { request: LocalRequest; onAction(action: RowAction): void }) {
  const online = useOnline();
  const { state: link, refreshIfStale } = useFileLink(request, online);
  const tool = toolOf(request);
  // A row not sent yet has no server id to act on; a rejected request has nothing to offer.
  const disabled = request.status === 'Rejected' || !!request.pending;
  const isDone = request.status === 'Done';
  const canRefund = request.status === 'In Progress' || isDone;

  let downloadHint: string | null = null;
  let downloadIcon = <Download size={ICON_SIZE} aria-hidden="true" />;
  if (link.kind === 'unpaid') {
    downloadHint = texts.downloadTooltip;
    downloadIcon = <CircleAlert size={ICON_SIZE} aria-hidden="true" color="var(--chakra-colors-red-600)" data-testid="download-error-icon" />;
  } else if (link.kind === 'error') {
    downloadHint = link.message;
    downloadIcon = <CircleAlert size={ICON_SIZE} aria-hidden="true" color="var(--chakra-colors-red-600)" />;
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
          <EllipsisVertical size={ICON_SIZE} aria-hidden="true" />
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="200px">
            <Menu.Item value="details" onSelect={() => onAction('details')}>
              <FileText size={ICON_SIZE} aria-hidden="true" />
              Request Details
            </Menu.Item>
            {canRefund && (
              <Menu.Item value="refund" onSelect={() => onAction('refund')}>
                <Undo2 size={ICON_SIZE} aria-hidden="true" />
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
                <Radar size={ICON_SIZE} aria-hidden="true" />
                Live Details
              </Menu.Item>
            )}
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
