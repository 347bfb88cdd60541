import { Button, Card, CloseButton, HStack, Stack, Text } from '@chakra-ui/react';
import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { iconSize } from '../../../components/theme-tokens.ts';
import { answerPushOffer, readPushOffer, turnOnPushHere, runsInstalled, showsPushOffer } from '../../../lib/push.ts';
import { usePushDevice } from '../../../lib/use-push-device.ts';
import { useReplica } from '../../../lib/replica.ts';

export const PUSH_OFFER_TEXT = 'Get notified on this device when your case moves';

/**
 * The one-time offer of push on this device: after an order placed here, or when the app runs installed. Its
 * button is the user's gesture that may show the browser's prompt; turning it on or dismissing it is remembered on
 * the device, so it never shows again. It never appears where the browser cannot or will not show notifications.
 */
export function PushOfferCard() {
  const db = useReplica();
  const { env, permission, wanted } = usePushDevice();
  const [offer, setOffer] = useState(() => readPushOffer());
  const [standalone] = useState(runsInstalled);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  if (wanted === undefined || permission === null || !showsPushOffer({ offer, standalone, permission, wanted })) return null;

  const answer = () => {
    answerPushOffer();
    setOffer('done');
  };
  const turnOn = async () => {
    setBusy(true);
    const result = await turnOnPushHere(env, db);
    setBusy(false);
    // Offline, the choice is kept and the subscription is made when the connection returns.
    if (result === 'failed') setFailed(true);
    else answer();
  };

  return (
    <Card.Root as="section" aria-label="Notifications on this device" variant="outline" bg="portal.white" data-testid="push-offer">
      <Card.Body py="4">
        <HStack gap="3" align="start">
          <Stack color="brand.fg" pt="0.5" flexShrink={0}>
            <BellRing size={iconSize} aria-hidden />
          </Stack>
          <Stack gap="3" flex="1" minWidth="0">
            <Text fontWeight="medium">{PUSH_OFFER_TEXT}</Text>
            {failed && (
              <Text fontSize="sm" color="fg.error" role="alert">
                Notifications could not be turned on here. Please try again.
              </Text>
            )}
            <HStack gap="2" wrap="wrap">
              <Button size="sm" colorPalette="brand" loading={busy} onClick={() => void turnOn()}>
                Turn on notifications
              </Button>
              <Button size="sm" variant="ghost" onClick={answer}>
                Not now
              </Button>
            </HStack>
          </Stack>
          <CloseButton size="sm" aria-label="Dismiss" onClick={answer} />
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
