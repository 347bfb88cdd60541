import { type FormEvent, useState } from 'react';
import { Button, Field, Input, Link, Stack, Textarea } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { texts } from '../../../../domain/texts.ts';
import { PageCard } from '../../../components/page-card.tsx';
import { queueContact } from '../../../lib/commands.ts';
import { useReplica } from '../../../lib/replica.ts';
import { isAccepted, useQueuedCommand } from '../../../lib/use-queued-command.ts';

/** The server's bounds (ContactBody), enforced here too so the user is stopped before queueing. */
export const subjectMax = 150;
export const messageMax = 2000;

/** Contact Us: the message goes through the outbox, so it is accepted offline and sent later. */
export function ContactUsPage() {
  const db = useReplica();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const { queuing, queue } = useQueuedCommand();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const s = subject.trim();
    const m = message.trim();
    if (!s || !m) return;
    // Refused by the server: the form keeps the text, so nothing the user wrote is lost from view.
    if (!isAccepted(await queue(() => queueContact(db, s, m), { sent: texts.messageSent }))) return;
    setSubject('');
    setMessage('');
  }

  return (
    <PageCard title="Contact Us" intro={texts.contactIntro} maxWidth="720px">
      <form onSubmit={(e) => void onSubmit(e)}>
        <Stack gap="4">
          <Field.Root required>
            <Field.Label>
              Subject <Field.RequiredIndicator />
            </Field.Label>
            <Input value={subject} maxLength={subjectMax} onChange={(e) => setSubject(e.target.value)} />
          </Field.Root>
          <Field.Root required>
            <Field.Label>
              Message <Field.RequiredIndicator />
            </Field.Label>
            <Textarea value={message} maxLength={messageMax} rows={6} onChange={(e) => setMessage(e.target.value)} />
            <Field.HelperText>
              {message.length}/{messageMax}
            </Field.HelperText>
          </Field.Root>
          <Stack direction={{ base: 'column-reverse', sm: 'row' }} justify="space-between" align={{ base: 'stretch', sm: 'center' }} gap="3">
            <Link asChild color="brand.fg" fontWeight="semibold" alignSelf={{ base: 'center', sm: 'auto' }}>
              <RouterLink to="/">Go Back to Dashboard</RouterLink>
            </Link>
            <Button type="submit" colorPalette="brand" loading={queuing} minWidth="120px">
              Send
            </Button>
          </Stack>
        </Stack>
      </form>
    </PageCard>
  );
}
