import { Button, Checkbox, Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { Popup } from '../../../components/popup.tsx';

/** Spec section 9, "Terms content", as readable paragraphs. */
export const termsSections: { title: string; body: string }[] = [
  {
    title: 'Eligibility',
    body: 'You must be at least 21 years old to order a service on this platform. By submitting a request you confirm that you meet this minimum age.',
  },
  {
    title: 'Purchases',
    body: 'All purchases are sold as is. Once a service has been ordered it is not refundable.',
  },
  {
    title: 'Payment',
    body: 'Payment is due within 30 days of the date of the invoice.',
  },
  {
    title: 'Term and renewal',
    body: 'This agreement runs for a term of one year and renews for further one-year terms. Either party may choose not to renew by giving at least 60 days\' notice of non-renewal before the end of the current term.',
  },
  {
    title: 'Services warranty',
    body: 'Any claim under the services warranty must be made within 30 days of the delivery of the service concerned.',
  },
  {
    title: 'Limitation of liability',
    body: 'Our total liability for any claim arising from a purchase is capped at the amount you paid for that purchase or, where nothing was paid, at $1.',
  },
  {
    title: 'Governing law',
    body: 'These terms are governed by the laws of the State of Israel, and the competent courts of Tel Aviv have exclusive jurisdiction over any dispute.',
  },
];

export interface TermsDialogProps {
  open: boolean;
  submitting: boolean;
  onBack(): void;
  onSubmit(): void;
  onClose(): void;
}

/** The terms popup: the agree checkbox enables Submit request; Go back returns to the form. */
export function TermsDialog({ open, submitting, onBack, onSubmit, onClose }: TermsDialogProps) {
  const [agreed, setAgreed] = useState(false);
  return (
    <Popup
      open={open}
      onClose={onClose}
      title="Terms and Conditions"
      size="lg"
      footer={
        <Stack direction="row" gap="3" justify="flex-end" width="100%" wrap="wrap">
          <Button variant="outline" onClick={onBack} disabled={submitting}>
            Go back
          </Button>
          <Button colorPalette="brand" disabled={!agreed} loading={submitting} onClick={onSubmit}>
            Submit request
          </Button>
        </Stack>
      }
    >
      <Stack gap="4">
        {termsSections.map((section, i) => (
          <Stack key={section.title} gap="1">
            <Heading as="h3" size="sm">
              {i + 1}. {section.title}
            </Heading>
            <Text>{section.body}</Text>
          </Stack>
        ))}
        <Checkbox.Root checked={agreed} onCheckedChange={(e) => setAgreed(e.checked === true)} colorPalette="brand" mt="2">
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>I have read and agree to the Terms and Conditions</Checkbox.Label>
        </Checkbox.Root>
      </Stack>
    </Popup>
  );
}
