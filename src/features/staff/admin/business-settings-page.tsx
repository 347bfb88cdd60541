import { Alert, Button, Field, HStack, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type BusinessSettings, BusinessSettingsFields, BusinessSettingsWrite, PROPOSAL_SAVED_TEXT, PaymentDetailsReview, paymentDetailsOf, samePaymentDetails } from '../../../../domain/business-settings.ts';
import { apiRequest, readData } from '../../../lib/api.ts';
import { useBusinessSettings } from '../../../lib/business-settings.ts';
import { useReplica } from '../../../lib/replica.ts';
import { useLiveQuery } from '../../../lib/use-live-query.ts';
import { QueryNotice } from '../shared/query-view.tsx';
import { useStaffQuery } from '../shared/use-staff-query.ts';
import { AdminPanel, useAdminSubmit } from './admin-shared.tsx';
import { PendingProposal } from './payment-proposal.tsx';

type TextField = 'accountHolder' | 'bankName' | 'accountNumber' | 'bic' | 'paymentNote';
type ListField = 'officialEmails' | 'officialDomains' | 'officialPhones';
type Form = Record<TextField | ListField, string>;

const textFields: { name: TextField; label: string; required?: boolean; max: number; help?: string }[] = [
  { name: 'accountHolder', label: 'Account holder', required: true, max: 140 },
  { name: 'bankName', label: 'Bank', required: true, max: 140 },
  { name: 'accountNumber', label: 'IBAN / account number', required: true, max: 64 },
  { name: 'bic', label: 'BIC / SWIFT', max: 20 },
];
const listFields: { name: ListField; label: string; help: string }[] = [
  { name: 'officialEmails', label: 'Official email addresses', help: 'One per line, e.g. support@example.com.' },
  { name: 'officialDomains', label: 'Official web domains', help: 'One per line, without https://, e.g. portal.example.com. Its subdomains count as official too.' },
  { name: 'officialPhones', label: 'Official phone numbers', help: 'One per line, with the country code, e.g. +44 20 7946 0000.' },
];

const emptyForm: Form = { accountHolder: '', bankName: '', accountNumber: '', bic: '', paymentNote: '', officialEmails: '', officialDomains: '', officialPhones: '' };

function formOf(settings: BusinessSettings | null): Form {
  if (!settings) return emptyForm;
  return {
    accountHolder: settings.accountHolder,
    bankName: settings.bankName,
    accountNumber: settings.accountNumber,
    bic: settings.bic,
    paymentNote: settings.paymentNote,
    officialEmails: settings.officialEmails.join('\n'),
    officialDomains: settings.officialDomains.join('\n'),
    officialPhones: settings.officialPhones.join('\n'),
  };
}

const lines = (value: string) =>
  value
    .split('\n')
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * Admin: the business's payment instructions and official channels (docs/decisions/016-business-settings-and-how-to-pay.md).
 * The form starts from the replica's copy (the sync brings it to every user); saving is online-only, carries the
 * version it was edited from (409 if someone saved since) and an Idempotency-Key made once per submission.
 */
export function BusinessSettingsPage() {
  const settings = useBusinessSettings();
  const db = useReplica();
  // Read online, as admin pages are: a proposal is never kept on a device. Asked again when this admin's
  // notifications move (another admin proposed or decided: each admin is notified) and when the settings do.
  const review = useStaffQuery('/staff/business-settings/proposal', PaymentDetailsReview);
  const notified = useLiveQuery(() => db.notifications.count(), [db]);
  const { reload } = review;
  useEffect(() => {
    if (notified !== undefined) reload();
  }, [notified, settings?.version, reload]);
  return (
    <AdminPanel title="Business settings">
      <Stack gap="5">
        <QueryNotice query={review} />
        {review.data?.proposal && settings && <PendingProposal proposal={review.data.proposal} admins={review.data.admins} current={settings} myUid={db.uid} onDecided={reload} />}
        {settings === undefined ? null : <BusinessSettingsForm saved={settings} onSaved={reload} />}
      </Stack>
    </AdminPanel>
  );
}

function BusinessSettingsForm({ saved, onSaved }: { saved: BusinessSettings | null; onSaved(): void }) {
  const db = useReplica();
  const [form, setForm] = useState<Form>(() => formOf(saved));
  const [base, setBase] = useState<BusinessSettings | null>(saved);
  const [errors, setErrors] = useState<Partial<Record<keyof Form, string>>>({});
  const { sending, submit } = useAdminSubmit();
  const key = useRef<string | null>(null);
  const edited = JSON.stringify(form) !== JSON.stringify(formOf(base));
  const changedElsewhere = (saved?.version ?? null) !== (base?.version ?? null);

  // A new submission (anything edited) gets a new key; a retry of the same one keeps it.
  useEffect(() => {
    key.current = null;
  }, [form]);

  // A form nobody typed in follows the settings (an approval, another admin's save); edits are never overwritten.
  useEffect(() => {
    if (changedElsewhere && !edited) {
      setForm(formOf(saved));
      setBase(saved);
    }
  }, [changedElsewhere, edited, saved]);

  const set = (name: keyof Form) => (value: string) => {
    setForm((f) => ({ ...f, [name]: value }));
    setErrors((e) => ({ ...e, [name]: undefined }));
  };

  function reload() {
    setForm(formOf(saved));
    setBase(saved);
    setErrors({});
  }

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = BusinessSettingsFields.safeParse({ ...form, officialEmails: lines(form.officialEmails), officialDomains: lines(form.officialDomains), officialPhones: lines(form.officialPhones) });
    if (!parsed.success) {
      const found: Partial<Record<keyof Form, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof Form;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    key.current ??= crypto.randomUUID();
    const idempotencyKey = key.current;
    // New payment details are a proposal: the server keeps clients on the current ones until a second admin approves.
    const proposing = !!saved && !samePaymentDetails(paymentDetailsOf(saved), paymentDetailsOf(parsed.data));
    await submit(
      async () => {
        const res = await apiRequest('/staff/business-settings', { method: 'PUT', json: { ...parsed.data, version: base?.version ?? null }, headers: { 'Idempotency-Key': idempotencyKey } });
        const next = await readData(res, BusinessSettingsWrite);
        // The settings are the row every device will pull: shown at once here. The payment fields go back to what
        // clients see; the proposal is shown above the form until it is decided.
        await db.businessSettings.put(next.settings);
        setBase(next.settings);
        setForm(formOf(next.settings));
      },
      proposing ? PROPOSAL_SAVED_TEXT : "Business settings saved. Each client's device gets them at its next sync.",
      () => undefined,
    );
    // A refusal (another admin's proposal pending) may mean the page's view of proposals is old.
    onSaved();
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="4">
        <Text color="fg.muted">Clients see the payment details on requests awaiting payment and on their pro-forma invoices. The official channels are what the “Was this really us?” check accepts.</Text>
        {changedElsewhere && (
          <Alert.Root status="warning" borderRadius="l3" role="alert">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Description>Someone saved these settings since you opened them. Load the latest before you save.</Alert.Description>
            </Alert.Content>
            <Button size="sm" variant="outline" onClick={reload}>
              Load the latest
            </Button>
          </Alert.Root>
        )}
        <Text as="h2" fontWeight="semibold" fontSize="lg">
          Payment instructions
        </Text>
        <Text color="fg.muted" fontSize="sm">
          A change of the account holder, bank, account number or BIC is a proposal: clients see it only once a second admin approves it, and are then warned for 14 days that the details changed.
        </Text>
        {textFields.map((f) => (
          <Field.Root key={f.name} required={f.required} invalid={!!errors[f.name]}>
            <Field.Label>
              {f.label} {f.required && <Field.RequiredIndicator />}
            </Field.Label>
            <Input value={form[f.name]} maxLength={f.max} autoComplete="off" onChange={(e) => set(f.name)(e.target.value)} />
            <Field.ErrorText>{errors[f.name]}</Field.ErrorText>
          </Field.Root>
        ))}
        <Field.Root invalid={!!errors.paymentNote}>
          <Field.Label>Note for clients</Field.Label>
          <Textarea value={form.paymentNote} maxLength={1000} rows={3} onChange={(e) => set('paymentNote')(e.target.value)} />
          <Field.ErrorText>{errors.paymentNote}</Field.ErrorText>
        </Field.Root>
        <Text as="h2" fontWeight="semibold" fontSize="lg">
          Official channels
        </Text>
        {listFields.map((f) => (
          <Field.Root key={f.name} invalid={!!errors[f.name]}>
            <Field.Label>{f.label}</Field.Label>
            <Textarea value={form[f.name]} rows={3} onChange={(e) => set(f.name)(e.target.value)} />
            {errors[f.name] ? <Field.ErrorText>{errors[f.name]}</Field.ErrorText> : <Field.HelperText>{f.help}</Field.HelperText>}
          </Field.Root>
        ))}
        <HStack justify="flex-end">
          <Button type="submit" colorPalette="brand" loading={sending} minWidth="120px">
            Save
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}
