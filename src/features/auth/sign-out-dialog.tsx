import { useSelector } from '@xstate/react';
import { ConfirmPopup } from '../../components/confirm-popup.tsx';
import { type SignOutActor, useSignOutActor } from './use-sign-out.ts';

/** Asks before a sign-out that would delete commands the server has not received yet. */
export function SignOutDialog() {
  const actor = useSignOutActor();
  return actor ? <ConfirmSignOut actor={actor} /> : null;
}

function ConfirmSignOut({ actor }: { actor: SignOutActor }) {
  const asking = useSelector(actor, (s) => s.matches('confirming'));
  const unsent = useSelector(actor, (s) => s.context.unsent);
  return (
    <ConfirmPopup
      alert
      open={asking}
      title="Sign out?"
      confirmLabel="Sign out anyway"
      danger
      onConfirm={() => actor.send({ type: 'CONFIRM' })}
      onClose={() => actor.send({ type: 'CANCEL' })}
    >
      {`You have ${unsent} unsent ${unsent === 1 ? 'request' : 'requests'}. Signing out deletes them from this device.`}
    </ConfirmPopup>
  );
}
