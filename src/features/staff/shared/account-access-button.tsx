import { Button } from '@chakra-ui/react';
import { Ban, CircleCheck } from 'lucide-react';
import { useState } from 'react';
import { ConfirmPopup } from '../../../components/confirm-popup.tsx';
import { useOnline } from '../../../lib/pwa.ts';
import { setAccountDisabled } from '../../../lib/security.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../../../lib/use-online-action.ts';

/**
 * Admins: disable an account (its sessions end at their next request, its sign-ins are refused) or enable it again,
 * after a confirmation; the server asks for step-up (the dialog every online action gets). `disabled` is what the
 * page knows; the answer of a change replaces it.
 */
export function AccountAccessButton({ uid, name, disabled: known = false, size = 'md', onChanged }: { uid: string; name: string; disabled?: boolean; size?: 'sm' | 'md'; onChanged?(disabled: boolean): void }) {
  const [disabled, setDisabled] = useState(known);
  const [confirming, setConfirming] = useState(false);
  const { running, run } = useOnlineAction();
  const online = useOnline();

  async function change() {
    const outcome = await run(() => setAccountDisabled(uid, !disabled));
    if (!outcome) return; // cancelled step-up, or already running: the confirmation stays open as it was
    setConfirming(false);
    if (outcome.ok) {
      setDisabled(outcome.value.disabled);
      showMessage(outcome.value.disabled ? `${name}'s account is disabled.` : `${name}'s account is enabled again.`, 'success');
      onChanged?.(outcome.value.disabled);
    } else if (!outcome.offline) showMessage(failureText(outcome.error), 'error');
  }

  return (
    <>
      <Button size={size} variant="outline" colorPalette={disabled ? 'brand' : 'red'} disabled={running || !online} onClick={() => setConfirming(true)} aria-label={`${disabled ? 'Enable' : 'Disable'} account of ${name}`}>
        {disabled ? <CircleCheck size={18} aria-hidden="true" /> : <Ban size={18} aria-hidden="true" />}
        {disabled ? 'Enable account' : 'Disable account'}
      </Button>
      <ConfirmPopup
        open={confirming}
        title={disabled ? 'Enable this account?' : 'Disable this account?'}
        confirmLabel={disabled ? 'Yes, enable' : 'Yes, disable'}
        danger={!disabled}
        busy={running}
        onConfirm={() => void change()}
        onClose={() => setConfirming(false)}
      >
        {disabled
          ? `${name} can sign in again.`
          : `${name} is signed out on every device at their next action and cannot sign in until an administrator enables the account again.`}
      </ConfirmPopup>
    </>
  );
}
