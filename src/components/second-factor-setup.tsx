import { Box, Button, Field, Heading, Input, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { Download, KeyRound } from 'lucide-react';
import qrcode from 'qrcode-generator';
import { type FormEvent, useMemo, useState } from 'react';
import { TotpCode } from '../../domain/security.ts';
import { saveBlob } from '../lib/save-file.ts';
import { type TotpSetupAnswer, addPasskey, confirmTotp, passkeysSupported, startTotpSetup } from '../lib/security.ts';
import { useOnlineAction } from '../lib/use-online-action.ts';
import { CopyField } from './copy-field.tsx';
import { factorFailureText } from './second-factor-verify.tsx';

/** What adding a factor answered: the recovery codes when it was the account's first (shown once). */
export interface Enrolled {
  recoveryCodes?: string[];
}

/** "Add a passkey": a name for it, then the browser's own prompt. */
export function AddPasskeyForm({ onAdded, submitLabel = 'Add a passkey' }: { onAdded(result: Enrolled): void; submitLabel?: string }) {
  const { running, run } = useOnlineAction();
  const [name, setName] = useState(defaultPasskeyName);
  const [error, setError] = useState<string | null>(null);
  if (!passkeysSupported()) return <Text color="fg.muted">This browser cannot create passkeys. Use an authenticator app instead.</Text>;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    const trimmed = name.trim();
    if (!trimmed) return setError('Name this passkey');
    const outcome = await run(() => addPasskey(trimmed));
    if (!outcome) return;
    if (outcome.ok) onAdded(outcome.value);
    else if (!outcome.offline) setError(factorFailureText(outcome.error));
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="3">
        <Field.Root invalid={error !== null}>
          <Field.Label>Passkey name</Field.Label>
          <Input name="passkey-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} maxWidth="20rem" />
          <Field.HelperText>So you can tell your devices apart later, e.g. "Work laptop".</Field.HelperText>
        </Field.Root>
        <Text role="alert" color="red.600" fontSize="sm" minHeight="1lh">
          {error ?? ''}
        </Text>
        <Button type="submit" colorPalette="brand" loading={running} alignSelf={{ base: 'stretch', sm: 'start' }}>
          <KeyRound size={18} aria-hidden="true" />
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

/** A name for a new passkey from the device: "Chrome on Windows". */
function defaultPasskeyName(): string {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : 'Browser';
  const os = /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : '';
  return os ? `${browser} on ${os}` : browser;
}

/**
 * An authenticator app: the server makes a secret (shown as a QR code and as text to type), the person enters the
 * app's first code, which confirms it. The secret lives in this component only, never on the device's storage.
 */
export function AuthenticatorSetup({ onConfirmed }: { onConfirmed(result: Enrolled): void }) {
  const { running, run } = useOnlineAction();
  const [setup, setSetup] = useState<TotpSetupAnswer | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function begin() {
    setError(null);
    const outcome = await run(startTotpSetup);
    if (!outcome) return;
    if (outcome.ok) setSetup(outcome.value);
    else if (!outcome.offline) setError(factorFailureText(outcome.error));
  }

  async function confirm(e: FormEvent) {
    e.preventDefault();
    const parsed = TotpCode.safeParse(code);
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the code');
    setError(null);
    const outcome = await run(() => confirmTotp(parsed.data));
    if (!outcome) return;
    if (outcome.ok) onConfirmed(outcome.value);
    else if (!outcome.offline) setError(factorFailureText(outcome.error));
  }

  if (!setup) {
    return (
      <Stack gap="3">
        <Text>Use an app such as Google Authenticator, Microsoft Authenticator or 1Password.</Text>
        <Text role="alert" color="red.600" fontSize="sm" minHeight="1lh">
          {error ?? ''}
        </Text>
        <Button variant="outline" colorPalette="brand" loading={running} onClick={() => void begin()} alignSelf={{ base: 'stretch', sm: 'start' }}>
          Set up the authenticator app
        </Button>
      </Stack>
    );
  }
  return (
    <form onSubmit={(e) => void confirm(e)} noValidate>
      <Stack gap="4">
        <Text>1. Scan this QR code with your authenticator app.</Text>
        <QrCode value={setup.uri} label="QR code of your authenticator secret" />
        <Field.Root>
          <Field.Label>Or type this secret into the app</Field.Label>
          <CopyField value={setup.secret} copyLabel="Copy secret" />
        </Field.Root>
        <Field.Root invalid={error !== null}>
          <Field.Label>2. Enter the 6-digit code the app shows</Field.Label>
          <Input name="code" value={code} onChange={(e) => setCode(e.target.value)} inputMode="numeric" autoComplete="one-time-code" maxLength={9} fontFamily="mono" maxWidth="16rem" />
        </Field.Root>
        <Text role="alert" color="red.600" fontSize="sm" minHeight="1lh">
          {error ?? ''}
        </Text>
        <Button type="submit" colorPalette="brand" loading={running} alignSelf={{ base: 'stretch', sm: 'start' }}>
          Turn on the authenticator app
        </Button>
      </Stack>
    </form>
  );
}

/** A QR code drawn as SVG squares (no image to fetch, nothing injected as HTML). */
function QrCode({ value, label }: { value: string; label: string }) {
  const { size, path } = useMemo(() => {
    const qr = qrcode(0, 'M');
    qr.addData(value);
    qr.make();
    const count = qr.getModuleCount();
    let d = '';
    for (let row = 0; row < count; row++) for (let col = 0; col < count; col++) if (qr.isDark(row, col)) d += `M${col + 4} ${row + 4}h1v1h-1z`;
    return { size: count + 8, path: d };
  }, [value]);
  return (
    <Box width="200px" height="200px" bg="white" borderWidth="1px" borderColor="portal.border" borderRadius="md">
      <svg role="img" aria-label={label} viewBox={`0 0 ${size} ${size}`} width="100%" height="100%" shapeRendering="crispEdges">
        <path d={path} fill="#000" />
      </svg>
    </Box>
  );
}

/**
 * The recovery codes, shown once: to copy or download, then "I have saved them". The codes live in the caller's
 * state only and go when it moves on.
 */
export function RecoveryCodesPanel({ codes, onDone, titled = true }: { codes: string[]; onDone(): void; titled?: boolean }) {
  const text = codes.join('\n');
  return (
    <Stack gap="4">
      {titled && (
        <Heading as="h3" fontSize="md" fontWeight="semibold">
          Your recovery codes
        </Heading>
      )}
      <Text>
        Keep these {codes.length} codes somewhere safe, away from this device. If you lose your passkey or your phone, each code lets you sign in once.
        They are shown only now.
      </Text>
      <List.Root as="ol" listStyleType="none" ps="0" aria-label="Recovery codes" data-testid="recovery-codes">
        <SimpleGrid columns={2} gap="2" maxWidth="20rem" fontFamily="mono" fontSize="md" bg="portal.background" p="3" borderRadius="md">
          {codes.map((code) => (
            <List.Item key={code}>{code}</List.Item>
          ))}
        </SimpleGrid>
      </List.Root>
      <Field.Root maxWidth="20rem">
        <Field.Label srOnly>All codes</Field.Label>
        <CopyField value={codes.join(' ')} copyLabel="Copy all codes" />
      </Field.Root>
      <Stack direction={{ base: 'column', sm: 'row' }} gap="3">
        <Button variant="outline" colorPalette="brand" onClick={() => saveBlob(new Blob([`Recovery codes\n\n${text}\n`], { type: 'text/plain' }), 'recovery-codes.txt')}>
          <Download size={18} aria-hidden="true" />
          Download
        </Button>
        <Button colorPalette="brand" onClick={onDone}>
          I have saved them
        </Button>
      </Stack>
    </Stack>
  );
}
