import { Alert, Box, Heading, Stack } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { type StaffAction, actionLabels, blockedReason } from '../../../../domain/lifecycle.ts';
import { statusLabel } from '../../../../domain/enums.ts';
import type { StaffRequest } from '../../../../domain/staff.ts';
import { OfflineHint } from '../shared/offline-hint.tsx';
import { SectionCard } from '../shared/section-card.tsx';
import type { ActionFormProps } from './action-props.ts';
import { ConfirmAction } from './confirm-action.tsx';
import { FinalFileForm } from './final-file-form.tsx';
import { PaymentForm } from './payment-form.tsx';
import { PriceForm } from './price-form.tsx';
import { RejectForm } from './reject-form.tsx';

/** The order the card lists actions in: the work's own order, the destructive one last. */
const order: StaffAction[] = ['price', 'start', 'deliver', 'complete', 'payment', 'contract', 'reject'];

/** Only what the server says this request allows now; anything it lists that this screen does not know is left out. */
export function offeredActions(allowed: readonly string[]): StaffAction[] {
  return order.filter((action) => allowed.includes(action));
}

/** Why Mark as Done is missing on a request in progress (the final file comes first), or null. */
export function doneBlockedReason(request: StaffRequest, offered: readonly StaffAction[]): string | null {
  if (request.status !== 'In Progress' || offered.includes('complete')) return null;
  return blockedReason('complete', {
    status: request.status,
    hasFinalFile: request.finalFileId !== null,
    contractSigned: request.contractSigned,
    leftToPay: request.leftToPay,
  });
}

function ActionForm({ action, ...props }: ActionFormProps & { action: StaffAction }) {
  switch (action) {
    case 'price':
      return <PriceForm {...props} />;
    case 'deliver':
      return <FinalFileForm {...props} />;
    case 'payment':
      return <PaymentForm {...props} />;
    case 'reject':
      return <RejectForm {...props} />;
    default:
      return <ConfirmAction action={action} {...props} />;
  }
}

/**
 * One action's block. Deliberately not labelled (no aria-label on it or its form): "Set price" would then
 * match a search for the "Price" field by label. Tests scope by the test id, people by the heading.
 */
function ActionBlock({ action, children }: { action: StaffAction; children: ReactNode }) {
  const title = actionLabels[action];
  return (
    <Box data-testid={`action-${action}`} borderTopWidth="1px" borderColor="portal.border" pt="4" _first={{ borderTopWidth: 0, pt: 0 }}>
      <Heading as="h3" fontSize="0.9375rem" fontWeight="semibold" mb="2">
        {title}
      </Heading>
      {children}
    </Box>
  );
}

/**
 * The Actions card: one small form per action the lifecycle allows on this request now. Offline they stay
 * visible (the page reads from the device) but disabled: each needs the server.
 */
export function ActionsCard({
  request,
  allowed,
  offline = false,
  ...props
}: Omit<ActionFormProps, 'request'> & { request: StaffRequest; allowed: readonly string[]; offline?: boolean }) {
  const offered = offeredActions(allowed);
  const blocked = doneBlockedReason(request, offered);
  return (
    <SectionCard title="Actions" actions={offline && offered.length > 0 ? <OfflineHint /> : undefined}>
      <Stack gap="4">
        {blocked && (
          <Alert.Root status="info" borderRadius="l2" size="sm" data-testid="done-blocked">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal">{blocked}</Alert.Title>
          </Alert.Root>
        )}
        {offered.length === 0 && !blocked && (
          <Box color="fg.muted">No actions are available on a request that is {statusLabel[request.status]}.</Box>
        )}
        {offered.map((action) => (
          <ActionBlock key={action} action={action}>
            <ActionForm action={action} request={request} {...props} />
          </ActionBlock>
        ))}
      </Stack>
    </SectionCard>
  );
}
