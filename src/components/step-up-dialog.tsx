import { Button, Spinner, Stack, Text } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { type SecurityStatus, fetchSecurityStatus } from '../lib/security.ts';
import { registerStepUpDialog, useStepUpQuestion } from '../lib/session-signals.ts';
import { failureText } from '../lib/use-online-action.ts';
import { Popup } from './popup.tsx';
import { SecondFactorVerify } from './second-factor-verify.tsx';

/**
 * The one step-up dialog (mounted by the signed-in layout): a sensitive admin action the server answered with 403
 * STEP_UP_REQUIRED asks here for the second factor again (passkey or code), then is sent once more
 * (`withStepUp`, run by every online action); Cancel leaves the action's form as it was.
 */
export function StepUpDialog() {
  const question = useStepUpQuestion();
  useEffect(() => registerStepUpDialog(), []);
  return (
    <Popup open={question !== null} onClose={() => question?.answer(false)} title="Confirm it’s you" size="sm">
      {question && <StepUpBody key={question.id} onVerified={() => question.answer(true)} onCancel={() => question.answer(false)} />}
    </Popup>
  );
}

function StepUpBody({ onVerified, onCancel }: { onVerified(): void; onCancel(): void }) {
  const [status, setStatus] = useState<SecurityStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    fetchSecurityStatus().then(
      (s) => live && setStatus(s),
      (err: unknown) => live && setError(failureText(err)),
    );
    return () => {
      live = false;
    };
  }, []);
  return (
    <Stack gap="4" pb="4">
      <Text>This change needs your second factor again. Your work is kept; it is sent as soon as you confirm.</Text>
      {status ? (
        <SecondFactorVerify status={status} onVerified={onVerified} allowRecovery={false} />
      ) : error ? (
        <Text role="alert" color="red.600">
          {error}
        </Text>
      ) : (
        <Spinner color="brand.solid" aria-label="Loading" />
      )}
      <Button variant="outline" onClick={onCancel} alignSelf="start">
        Cancel
      </Button>
    </Stack>
  );
}
