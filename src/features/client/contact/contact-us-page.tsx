import { type FormEvent, type ReactNode, useState } from 'react';
import { Button, Field, Input, Link, Stack, Textarea } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { ContactBody } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { PageCard } from '../../../components/page-card.tsx';
import { Popup } from '../../../components/popup.tsx';
import { type CommandEditorProps, saveAndSendLabel, useSaveEdit } from '../../../lib/sync/commands/editor-context.ts';
import { EditRefused } from '../../../components/edit-refused.tsx';
import { queueContact } from '../../../lib/sync/commands/kinds.ts';
import { useReplica } from '../../../lib/replica.ts';
import { isAccepted, useQueuedCommand } from '../../../lib/sync/commands/use-queued-command.ts';

/** The server's bounds (ContactBody), enforced here too so the user is stopped before queueing. */
export const subjectMax = 150;
export const messageMax = 2000;

type ContactFields = ContactBody['contactRequest'];

/** Contact Us: the message goes through the outbox, so it is accepted offline and sent later. */
export function ContactUsPage() {
  const db = useReplica();
  const { queuing, queue } = useQueuedCommand();

  // Refused by the server: the form keeps the text, so nothing the user wrote is lost from view.
  const submit = async ({ subject, message }: ContactFields) => isAccepted(await queue(() => queueContact(db, subject, message), { sent: texts.messageSent }));

  return (
    <PageCard title="Contact Us" intro={texts.contactIntro} maxWidth="720px">
      <ContactForm
        initial={null}
        busy={queuing}
        submitLabel="Send"
        onSubmit={submit}
        aside={
          <Link asChild color="brand.fg" fontWeight="semibold" alignSelf={{ base: 'center', sm: 'auto' }}>
            <RouterLink to="/">Go Back to Dashboard</RouterLink>
          </Link>
        }
      />
    </PageCard>
  );
}

/** The outbox's Edit of a refused message: the same form, prefilled. */
export function ContactEditDialog({ body, onSave, onClose }: CommandEditorProps<'contact'>) {
  const { busy, refused, save } = useSaveEdit(onSave);
  const cancel = (
    <Button variant="outline" onClick={onClose}>
      Cancel
    </Button>
  );
  return (
    <Popup open onClose={onClose} title="Contact Us">
      <ContactForm initial={body.contactRequest} busy={busy} submitLabel={saveAndSendLabel} onSubmit={(contactRequest) => save({ contactRequest })} aside={cancel} />
      <EditRefused text={refused} />
    </Popup>
  );
}

/** What ContactBody says of the fields, keyed by field: the form shows the server's own rule before queueing. */
function contactErrors(fields: ContactFields): Partial<Record<keyof ContactFields, string>> {
  const parsed = ContactBody.safeParse({ contactRequest: fields });
  if (parsed.success) return {};
  const errors: Partial<Record<keyof ContactFields, string>> = {};
  for (const issue of parsed.error.issues) {
    const key = issue.path[1] === 'subject' ? 'subject' : 'message';
    errors[key] ??= issue.message.replace(/^\w/, (c) => c.toUpperCase());
  }
  return errors;
}

/** Subject and message; `onSubmit` resolves true when the form may be cleared. */
function ContactForm({
  initial,
  busy,
  submitLabel,
  onSubmit,
  aside,
}: {
  initial: ContactFields | null;
  busy: boolean;
  submitLabel: string;
  onSubmit(fields: ContactFields): Promise<boolean>;
  aside: ReactNode;
}) {
  const [subject, setSubject] = useState(initial?.subject ?? '');
  const [message, setMessage] = useState(initial?.message ?? '');
  const [touched, setTouched] = useState(false);
  const errors = touched ? contactErrors({ subject, message }) : {};

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(contactErrors({ subject, message })).length > 0) return;
    if (!(await onSubmit({ subject: subject.trim(), message: message.trim() }))) return;
    setSubject('');
    setMessage('');
    setTouched(false);
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate>
      <Stack gap="4">
        <Field.Root required invalid={!!errors.subject}>
          <Field.Label>
            Subject <Field.RequiredIndicator />
          </Field.Label>
          <Input value={subject} maxLength={subjectMax} onChange={(e) => setSubject(e.target.value)} />
          <Field.ErrorText>{errors.subject}</Field.ErrorText>
        </Field.Root>
        <Field.Root required invalid={!!errors.message}>
          <Field.Label>
            Message <Field.RequiredIndicator />
          </Field.Label>
          <Textarea value={message} maxLength={messageMax} rows={6} onChange={(e) => setMessage(e.target.value)} />
          {errors.message ? (
            <Field.ErrorText>{errors.message}</Field.ErrorText>
          ) : (
            <Field.HelperText>
              {message.length}/{messageMax}
            </Field.HelperText>
          )}
        </Field.Root>
        <Stack direction={{ base: 'column-reverse', sm: 'row' }} justify="space-between" align={{ base: 'stretch', sm: 'center' }} gap="3">
          {aside}
          <Button type="submit" colorPalette="brand" loading={busy} minWidth="120px">
            {submitLabel}
          </Button>
        </Stack>
      </Stack>
    </form>
  );
}
