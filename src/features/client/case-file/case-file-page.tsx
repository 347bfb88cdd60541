import { Button, Card, Heading, List, Stack, Text } from '@chakra-ui/react';
import { FileDown } from 'lucide-react';
import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { type ReactNode, useEffect, useState } from 'react';
import { formatDateTime } from '../../../../domain/format.ts';
import { iconSize } from '../../../components/theme-tokens.ts';
import { type PortalDb, requestsOfTool } from '../../../lib/db.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { useReplica } from '../../../lib/replica.ts';
import { downloadCaseFile, refreshTrackMasterVisits } from './load-case-file.ts';

const whereToReport = [
  { who: 'The police', what: 'Report the crime where you live and ask for a crime reference number. Give it to your bank too.' },
  {
    who: 'The national fraud reporting centre',
    what: "Your country's fraud reporting service (for example Action Fraud in the UK, the FBI's IC3 in the US, or the police's online fraud form elsewhere). It links reports of the same scammers.",
  },
  {
    who: "Your bank's or exchange's dispute team",
    what: 'Call the number on your card or in your app, not one given by anyone else. Ask to dispute the payments (a chargeback or a recall) as soon as you can: time limits apply.',
  },
];

const toAttach = [
  'This case file.',
  'The evidence files it lists. Their SHA-256 lets anyone check a copy is the file you uploaded.',
  'Bank or wallet statements showing the payments, and screenshots of the conversations with the scammer.',
];

/** The case file for the police, the bank or the exchange, built on this device from its copy of the case. */
export function CaseFilePage() {
  const db = useReplica();
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const visitsAsOf = useTrackMasterVisits(db);

  async function download() {
    setBusy(true);
    setFailed(false);
    try {
      await downloadCaseFile(db);
    } catch {
      setFailed(true);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth="3xl">
      <Card.Header>
        <Heading as="h1" textStyle="h1">
          Case file
        </Heading>
      </Card.Header>
      <Card.Body pt="2">
        <Stack gap="5">
          <Text>
            One PDF with your case: who you are, what happened, every request with its status history, your payments and refunds, the evidence you uploaded with its
            fingerprint (SHA-256), Track Master visits and your messages with support. It is made on this device, so it works offline too.
          </Text>
          <Stack gap="2" align="start">
            <Button colorPalette="brand" onClick={() => void download()} loading={busy} loadingText="Preparing your case file…">
              <FileDown size={iconSize} aria-hidden />
              Download my case file
            </Button>
            {visitsAsOf !== null && (
              <Text fontSize="sm" color="fg.muted" data-testid="visits-as-of">
                Track Master visits on this device as of {formatDateTime(visitsAsOf)}.
              </Text>
            )}
            {failed && (
              <Text color="red.600" role="alert">
                The case file could not be made on this device. Please try again.
              </Text>
            )}
          </Stack>
          <ListSection title="Where to report">
            {whereToReport.map((item) => (
              <List.Item key={item.who}>
                <Text as="span" fontWeight="semibold">
                  {item.who}:
                </Text>{' '}
                {item.what}
              </List.Item>
            ))}
          </ListSection>
          <ListSection title="What to attach">
            {toAttach.map((item) => (
              <List.Item key={item}>{item}</List.Item>
            ))}
          </ListSection>
        </Stack>
      </Card.Body>
    </Card.Root>
  );
}

/**
 * Keeps the Track Master visits on the device fresh while this page is open online: on opening, on reconnecting,
 * and whenever a payment or a capture reaches the replica (a payment in full opens the server's gate), so the
 * file built offline later has them.
 */
function useTrackMasterVisits(db: PortalDb): number | null {
  const online = useOnline();
  const changes = useLiveQuery(async () => {
    const requests = await requestsOfTool(db, 'TRACK_MASTER').toArray();
    const links = await db.trackingLinks.toArray();
    return `${requests.map((r) => `${r.id}:${r.paid}:${r.pending ? 1 : 0}`).join()}|${links.reduce((n, l) => n + l.visits + l.previews, 0)}`;
  }, [db]);
  useEffect(() => {
    if (online && changes !== undefined) void refreshTrackMasterVisits(db);
  }, [db, online, changes]);
  // When the copy the file will print was fetched: the oldest of them, so it never claims more than it has.
  const asOf = useLiveQuery(async () => {
    const ids = new Set((await requestsOfTool(db, 'TRACK_MASTER').toArray()).filter((r) => !r.pending).map((r) => r.id));
    const copies = (await db.liveDetails.toArray()).filter((d) => ids.has(d.id));
    return copies.length === ids.size && ids.size > 0 ? Math.min(...copies.map((d) => d.fetchedAt)) : null;
  }, [db]);
  return asOf ?? null;
}

function ListSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="2">
      <Heading as="h2" fontSize="lg">
        {title}
      </Heading>
      <List.Root gap="2" ps="5">
        {children}
      </List.Root>
    </Stack>
  );
}
