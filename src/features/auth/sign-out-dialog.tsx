import { Button, Dialog, Portal } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { type SignOutActor, useSignOutActor } from './use-sign-out.ts';

/** Asks before a sign-out that would delete commands the server has not received yet. */
export function SignOutDialog() {
  const actor = useSignOutActor();
  return actor ? <ConfirmDialog actor={actor} /> : null;
}

function ConfirmDialog({ actor }: { actor: SignOutActor }) {
  const asking = useSelector(actor, (s) => s.matches('confirming'));
  const unsent = useSelector(actor, (s) => s.context.unsent);
  return (
    <Dialog.Root
      role="alertdialog"
      open={asking}
      onOpenChange={(d) => {
        if (!d.open) actor.send({ type: 'CANCEL' });
      }}
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner px="4">
          <Dialog.Content boxShadow="none" borderWidth="1px">
            <Dialog.Header>
              <Dialog.Title textStyle="h1">Sign out?</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>
                You have {unsent} unsent {unsent === 1 ? 'request' : 'requests'}. Signing out deletes them from this device.
              </Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => actor.send({ type: 'CANCEL' })}>
                Cancel
              </Button>
              <Button colorPalette="red" onClick={() => actor.send({ type: 'CONFIRM' })}>
                Sign out anyway
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
