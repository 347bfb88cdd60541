import { Box, Button, Card, HStack, Stack, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { Info, Plus } from 'lucide-react';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { texts } from '../../../../domain/texts.ts';
import type { ToolDefinition } from '../../../../domain/tools.ts';
import { iconSize } from '../../../components/theme-tokens.ts';
import { ToolIcon } from '../../../components/tool-icon.tsx';
import { markPushOfferDue } from '../../../lib/push.ts';
import { queuePurchase } from '../../../lib/sync/commands/kinds.ts';
import { useProfile, useReplica } from '../../../lib/replica.ts';
import { revealNewRequest } from '../../../lib/ui-state.ts';
import { useQueuedCommand } from '../../../lib/sync/commands/use-queued-command.ts';
import { PurchaseDialog } from './purchase-dialog.tsx';
import { Explainer } from './tool-explainer.tsx';
import type { PurchaseDraft, SubmitOutcome } from './purchase.machine.ts';
import { toPurchaseBody } from './purchase-values.ts';

/** Spec: after a purchase, back to the dashboard in 3 s, or 4 s when files were attached. */
export const REDIRECT_MS = 3000;
export const REDIRECT_FILE_MS = 4000;

export interface ToolPageProps {
  tool: ToolDefinition;
  /** This tool's requests (the requests task's table), composed by the route. */
  requests: ReactNode;
}

/** A tool's page: what it does, its explainer (video or three steps), New Request (clients only) and its requests. */
export function ToolPage({ tool, requests }: ToolPageProps) {
  const db = useReplica();
  const profile = useProfile();
  const navigate = useNavigate();
  const [ordering, setOrdering] = useState(false);
  const { queue } = useQueuedCommand();
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => () => {
    if (redirect.current) clearTimeout(redirect.current);
  }, []);

  const submit = useCallback(
    async (draft: PurchaseDraft): Promise<SubmitOutcome> => {
      const write = () => queuePurchase(db, tool, toPurchaseBody(tool, draft));
      // Before the write: the new row is scrolled into view as it appears, and kept above the message that follows.
      revealNewRequest();
      const outcome = await queue(write, { sent: texts.requestSubmitted, failed: texts.tryAgainLater });
      if (!outcome) throw new Error('The request was not queued');
      // Refused by the server (already said, with its words): the terms stay open, as after any failure.
      if (outcome === 'failed') throw new Error('The request was refused');
      // After an order, the dashboard offers push on this device once (lib/push.ts).
      markPushOfferDue();
      return outcome;
    },
    [db, tool, queue],
  );

  // The queue has told the user how it went; back to the dashboard after a moment.
  const onSubmitted = useCallback(() => {
    setOrdering(false);
    const delay = tool.isFormData ? REDIRECT_FILE_MS : REDIRECT_MS;
    redirect.current = setTimeout(() => void navigate({ to: '/' }), delay);
  }, [navigate, tool]);

  const isClient = profile?.isClient === true;
  return (
    <Stack gap="6">
      <Card.Root variant="outline" bg="portal.white">
        <Card.Body gap="5">
          <Stack direction={{ base: 'column', md: 'row' }} justify="space-between" align={{ base: 'stretch', md: 'flex-start' }} gap="4">
            <HStack gap="3" align="flex-start">
              <Box bg="brand.subtle" color="brand.fg" rounded="l2" p="2" display="flex" flexShrink={0}>
                <ToolIcon icon={tool.icon} />
              </Box>
              <Box>
                <Text as="h1" fontSize="1.125rem" fontWeight="semibold">
                  {tool.header}
                </Text>
                <Text color="fg.muted">{tool.shortExplanation}</Text>
              </Box>
            </HStack>
            {isClient ? (
              <Button colorPalette="brand" onClick={() => setOrdering(true)} flexShrink={0}>
                <Plus size={iconSize} aria-hidden="true" />
                New Request
              </Button>
            ) : (
              <Button disabled variant="subtle" flexShrink={0}>
                Waiting for Approval
              </Button>
            )}
          </Stack>
          <Stack direction={{ base: 'column', lg: 'row' }} gap="5" align="stretch">
            <Box flex="3" minWidth="0">
              <Explainer tool={tool} />
            </Box>
            <Box flex="2" bg="brand.subtle" rounded="l2" p="4" as="aside" aria-label={`About ${tool.header}`}>
              <HStack gap="2" mb="2" color="brand.fg">
                <Info size={iconSize} aria-hidden="true" />
                <Text fontWeight="semibold">About {tool.header}</Text>
              </HStack>
              <Text>{tool.info}</Text>
            </Box>
          </Stack>
        </Card.Body>
      </Card.Root>
      {requests}
      {ordering && isClient && <PurchaseDialog tool={tool} onClose={() => setOrdering(false)} submit={submit} onSubmitted={onSubmitted} />}
    </Stack>
  );
}
