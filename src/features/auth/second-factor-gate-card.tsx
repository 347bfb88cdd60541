import { Button, Card, Heading, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { type ReactNode, useState } from 'react';
import { AddPasskeyForm, AuthenticatorSetup, RecoveryCodesPanel } from '../../components/second-factor-setup.tsx';
import { SecondFactorVerify } from '../../components/second-factor-verify.tsx';
import type { GateActor } from './second-factor-gate.machine.ts';
import { useSignOut } from './use-sign-out.ts';

/**
 * What the gate shows while it is closed: enrolment, the recovery codes once, verification, or why it waits. Loaded
 * only when the gate closes, so the signed-in screens of the many accounts without a factor do not carry it.
 */
export function SecondFactorGateCard({ actor }: { actor: GateActor }) {
  const state = useSelector(actor, (s) => s.value);
  const status = useSelector(actor, (s) => s.context.status);
  const codes = useSelector(actor, (s) => s.context.recoveryCodes);
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <GateCard title={state === 'enrolling' ? 'Protect your staff account' : state === 'showingCodes' ? 'Save your recovery codes' : 'Confirm it’s you'}>
      {state === 'enrolling' && <Enrolment onEnrolled={(recoveryCodes) => actor.send({ type: 'ENROLLED', recoveryCodes })} />}
      {state === 'showingCodes' && codes && <RecoveryCodesPanel titled={false} codes={codes} onDone={() => actor.send({ type: 'CODES_SAVED' })} />}
      {state === 'verifying' && status && (
        <Stack gap="4">
          <Text>
            Your account asks for a second step at every sign-in.{' '}
            {status.passkeys.length > 0 && status.totp ? 'Use your passkey, or the code from your authenticator app.' : status.totp ? 'Enter the code from your authenticator app.' : 'Use your passkey.'}
          </Text>
          <SecondFactorVerify status={status} onVerified={() => actor.send({ type: 'VERIFIED' })} />
        </Stack>
      )}
      {state === 'offline' && (
        <Stack gap="4">
          <Text>You are offline. Your account opens once this sign-in has been confirmed with your second factor, which needs a connection.</Text>
          <Button variant="outline" colorPalette="brand" alignSelf="start" onClick={() => actor.send({ type: 'RETRY' })}>
            Try again
          </Button>
        </Stack>
      )}
      {state === 'failed' && (
        <Stack gap="4">
          <Text role="alert">{error ?? 'Something went wrong.'}</Text>
          <Button variant="outline" colorPalette="brand" alignSelf="start" onClick={() => actor.send({ type: 'RETRY' })}>
            Try again
          </Button>
        </Stack>
      )}
    </GateCard>
  );
}

function GateCard({ title, children }: { title: string; children: ReactNode }) {
  const signOut = useSignOut();
  return (
    <Card.Root as="section" variant="elevated" bg="portal.white" maxWidth="560px" aria-labelledby="second-factor-title" data-testid="second-factor-gate">
      <Card.Header px={{ base: '4', md: '6' }}>
        <Heading as="h1" id="second-factor-title" fontSize="1.25rem" fontWeight="semibold">
          {title}
        </Heading>
      </Card.Header>
      <Card.Body pt="3" px={{ base: '4', md: '6' }}>
        {children}
      </Card.Body>
      {/* Shown before the app's menu too (the profile waits for the factor): never a screen without a way out. */}
      <Card.Footer px={{ base: '4', md: '6' }} borderTopWidth="1px" borderColor="portal.border" pt="4">
        <Text fontSize="sm" color="fg.muted">
          Not you, or no access to your second step?{' '}
          <Button variant="plain" colorPalette="brand" color="brand.fg" size="sm" px="0" h="auto" onClick={signOut}>
            Sign out
          </Button>
        </Text>
      </Card.Footer>
    </Card.Root>
  );
}

/** The first factor of a staff account: a passkey first; an authenticator app for devices without passkeys. */
function Enrolment({ onEnrolled }: { onEnrolled(recoveryCodes?: string[]): void }) {
  const [method, setMethod] = useState<'passkey' | 'app'>('passkey');
  return (
    <Stack gap="5">
      <Text>Staff accounts can open every client's file, so a password alone is not enough. Add a second step now; you will use it at every sign-in.</Text>
      {method === 'passkey' ? (
        <>
          <Text>A passkey uses this device's fingerprint, face or screen lock. Nothing to type, and it cannot be phished.</Text>
          <AddPasskeyForm onAdded={(r) => onEnrolled(r.recoveryCodes)} />
          <Button variant="plain" colorPalette="brand" color="brand.fg" alignSelf="start" px="0" onClick={() => setMethod('app')}>
            Use an authenticator app instead
          </Button>
        </>
      ) : (
        <>
          <AuthenticatorSetup onConfirmed={(r) => onEnrolled(r.recoveryCodes)} />
          <Button variant="plain" colorPalette="brand" color="brand.fg" alignSelf="start" px="0" onClick={() => setMethod('passkey')}>
            Use a passkey instead
          </Button>
        </>
      )}
    </Stack>
  );
}
