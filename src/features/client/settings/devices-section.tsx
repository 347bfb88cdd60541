import { Badge, Box, Button, HStack, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { Monitor } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { formatDateTime } from '../../../../domain/format.ts';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { NetworkError } from '../../../lib/api-errors.ts';
import { useOnline } from '../../../lib/pwa.ts';
import { type SessionItem, fetchSessions, signOutEverywhere, signOutOtherSessions, signOutSession } from '../../../lib/security.ts';
import { reportSessionEnded } from '../../../lib/session-signals.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../../../lib/use-online-action.ts';

type Loaded = { sessions: SessionItem[] } | { error: string; offline: boolean } | null;

/**
 * Settings → Security, the signed-in devices: browser and system, approximate place, first and last seen, this device
 * marked. Signing one out (or all others, or every device) takes effect at that device's next request: it shows the
 * login page with the reason.
 */
export function DevicesSection() {
  const [loaded, setLoaded] = useState<Loaded>(null);
  const [round, setRound] = useState(0);
  const [confirming, setConfirming] = useState<'others' | 'everywhere' | null>(null);
  const online = useOnline();
  const { running, run } = useOnlineAction();
  const reload = useCallback(() => setRound((n) => n + 1), []);

  useEffect(() => {
    let live = true;
    fetchSessions().then(
      (sessions) => live && setLoaded({ sessions }),
      (err: unknown) => live && setLoaded({ error: failureText(err), offline: err instanceof NetworkError }),
    );
    return () => {
      live = false;
    };
  }, [round, online]);

  async function signOut(send: () => Promise<unknown>, done: string) {
    const outcome = await run(send);
    if (!outcome) return;
    setConfirming(null);
    if (outcome.ok) showMessage(done, 'success');
    else if (!outcome.offline) showMessage(failureText(outcome.error), 'error');
    reload();
  }

  // The server has ended this session too: the app signs out as for any ended session, and the login page says why.
  async function signOutAll() {
    const outcome = await run(signOutEverywhere);
    if (!outcome) return;
    setConfirming(null);
    if (outcome.ok) reportSessionEnded('signed-out-everywhere');
    else if (!outcome.offline) showMessage(failureText(outcome.error), 'error');
  }

  const others = loaded && 'sessions' in loaded ? loaded.sessions.filter((s) => !s.current).length : 0;
  return (
    <Stack gap="4" as="section" aria-labelledby="devices-heading">
      <Heading as="h2" id="devices-heading" fontSize="md" fontWeight="semibold">
        Signed-in devices
      </Heading>
      {loaded === null ? (
        <Spinner color="brand.solid" aria-label="Loading" />
      ) : 'error' in loaded ? (
        <Text role="alert" color={loaded.offline ? 'orange.700' : 'red.600'}>
          {loaded.offline ? 'You are offline. The list of your devices shows when you are back online.' : loaded.error}
        </Text>
      ) : (
        <>
          <Stack as="ul" gap="2" listStyleType="none" m="0" p="0" aria-label="Signed-in devices">
            {loaded.sessions.map((session) => (
              <HStack as="li" key={session.id} data-testid="device" justify="space-between" align="start" gap="3" wrap="wrap" borderWidth="1px" borderColor="portal.border" borderRadius="md" p="3">
                <HStack align="start" gap="3" minWidth="0">
                  <Box pt="1" color="portal.nav">
                    <Monitor size={18} aria-hidden="true" />
                  </Box>
                  <Box minWidth="0">
                    <HStack gap="2" wrap="wrap">
                      <Text fontWeight="medium">
                        {session.browser} on {session.os}
                      </Text>
                      {session.current && (
                        <Badge colorPalette="green" variant="subtle">
                          This device
                        </Badge>
                      )}
                    </HStack>
                    {session.place && (
                      <Text fontSize="sm" color="fg.muted">
                        Near {session.place}
                      </Text>
                    )}
                    <Text fontSize="sm" color="fg.muted">
                      Signed in {formatDateTime(session.firstSeenAt)} · last active {formatDateTime(session.lastSeenAt)}
                    </Text>
                  </Box>
                </HStack>
                {!session.current && (
                  <Button
                    size="sm"
                    variant="outline"
                    colorPalette="red"
                    disabled={running}
                    aria-label={`Sign out ${session.browser} on ${session.os}`}
                    onClick={() => void signOut(() => signOutSession(session.id), `${session.browser} on ${session.os} is signed out.`)}
                  >
                    Sign out
                  </Button>
                )}
              </HStack>
            ))}
          </Stack>
          <HStack gap="2" wrap="wrap">
            {others > 0 && (
              <Button variant="outline" colorPalette="red" disabled={running} onClick={() => setConfirming('others')}>
                Sign out all other devices
              </Button>
            )}
            <Button variant="outline" colorPalette="red" disabled={running} onClick={() => setConfirming('everywhere')}>
              Sign out all devices
            </Button>
          </HStack>
        </>
      )}
      <ConfirmPopup
        open={confirming === 'others'}
        title="Sign out all other devices?"
        confirmLabel="Yes, sign them out"
        danger
        busy={running}
        onConfirm={() => void signOut(signOutOtherSessions, 'Every other device is signed out.')}
        onClose={() => setConfirming(null)}
      >
        Every device but this one is signed out at its next action. Use this if you think someone else knows your password.
      </ConfirmPopup>
      <ConfirmPopup
        open={confirming === 'everywhere'}
        title="Sign out all devices?"
        confirmLabel="Yes, sign out everywhere"
        danger
        busy={running}
        onConfirm={() => void signOutAll()}
        onClose={() => setConfirming(null)}
      >
        Every device is signed out, this one too. Changes not sent yet from this device are not kept. Sign in again with your password (and your
        second step, if you have one).
      </ConfirmPopup>
    </Stack>
  );
}
