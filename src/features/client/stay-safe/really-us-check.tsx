import { Alert, Badge, Box, Button, Field, HStack, Heading, List, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { type BusinessSettings, type CheckResult, type CheckVerdict, checkMessage, type ContactKind } from '../../../../domain/business-settings.ts';

const MAX_PASTE = 20_000;

const verdictStatus: Record<CheckVerdict, 'success' | 'error' | 'info'> = { official: 'success', 'not-us': 'error', 'nothing-to-check': 'info' };
const kindLabel: Record<ContactKind, string> = { email: 'Email', web: 'Web address', phone: 'Phone' };

/**
 * "Was this really us?": the client pastes what they received; it is compared on this device (works offline) with
 * the official channels the sync brought. Nothing pasted leaves the device.
 */
export function ReallyUsCheck({ settings }: { settings: BusinessSettings | null }) {
  const [text, setText] = useState('');
  const [result, setResult] = useState<CheckResult | null>(null);
  const [empty, setEmpty] = useState(false);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) {
      setEmpty(true);
      setResult(null);
      return;
    }
    setResult(checkMessage(text, settings ?? { officialEmails: [], officialDomains: [], officialPhones: [] }));
  }

  return (
    <Stack gap="4">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="3" align="start">
          <Field.Root invalid={empty}>
            <Field.Label>Paste the message, or the email address, web address or phone number it came from</Field.Label>
            <Textarea
              value={text}
              rows={5}
              maxLength={MAX_PASTE}
              onChange={(e) => {
                setText(e.target.value);
                setEmpty(false);
              }}
            />
            <Field.HelperText>It is checked on this device and is not sent anywhere.</Field.HelperText>
            <Field.ErrorText>Paste something to check first.</Field.ErrorText>
          </Field.Root>
          <Button type="submit" colorPalette="brand">
            Check it
          </Button>
        </Stack>
      </form>
      {result && <CheckAnswer result={result} configured={settings !== null} />}
    </Stack>
  );
}

function CheckAnswer({ result, configured }: { result: CheckResult; configured: boolean }) {
  return (
    <Stack gap="4" data-testid="check-result" data-verdict={result.verdict} aria-live="polite">
      <Alert.Root status={verdictStatus[result.verdict]} borderRadius="l3">
        <Alert.Indicator />
        <Alert.Content>
          <Alert.Title fontSize="md">{result.headline}</Alert.Title>
          <Alert.Description>{result.advice}</Alert.Description>
          {!configured && <Alert.Description>Our official channels are not configured yet, so nothing can be confirmed as ours.</Alert.Description>}
        </Alert.Content>
      </Alert.Root>
      {result.contacts.length > 0 && (
        <Box>
          <Heading as="h3" fontSize="md" mb="2">
            What we found
          </Heading>
          <List.Root ps="0" gap="2" listStyleType="none">
            {result.contacts.map((c) => (
              <List.Item key={`${c.kind}:${c.value}`}>
                <HStack gap="2" wrap="wrap">
                  <Badge colorPalette={c.official ? 'green' : 'red'} variant="solid">
                    {c.official ? 'Official' : 'Not ours'}
                  </Badge>
                  <Text as="span" color="fg.muted">
                    {kindLabel[c.kind]}:
                  </Text>
                  <Text as="span" fontFamily="mono" overflowWrap="anywhere">
                    {c.value}
                  </Text>
                </HStack>
              </List.Item>
            ))}
          </List.Root>
        </Box>
      )}
      {result.redFlags.length > 0 && (
        <Box>
          <Heading as="h3" fontSize="md" mb="2">
            Warning signs
          </Heading>
          <List.Root ps="5" gap="2">
            {result.redFlags.map((f) => (
              <List.Item key={`${f.kind}:${f.found}`}>
                <Text as="span" fontWeight="semibold">
                  “{f.found}”
                </Text>{' '}
                {f.why}
              </List.Item>
            ))}
          </List.Root>
        </Box>
      )}
    </Stack>
  );
}
