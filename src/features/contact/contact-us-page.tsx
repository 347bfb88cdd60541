import { type FormEvent, useState } from 'react';
import { Button, Card, Field, Heading, Input, Link, Stack, Text, Textarea } from '@chakra-ui/react';
import { Link as RouterLink } from '@tanstack/react-router';
import { texts } from '../../../domain/texts.ts';
import { queueContact } from '../../lib/commands.ts';
import { useReplica } from '../../lib/replica.ts';
import { showMessage } from '../../lib/ui-state.ts';

/** The server's bounds (ContactBody), enforced here too so the user is stopped before queueing. */
export const subjectMax = 150;
export const messageMax = 2000;

/** Contact Us: the message goes through the outbox, so it is accepted offline and sent later. */
export function ContactUsPage() {
  const db = useReplica();
  const [subject, setSubject] = useState('');
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const s = subject.trim();
    const m = message.trim();
    if (!s || !m) return;
    setSending(true);
    try {
      await queueContact(db, s, m);
      // Queued is as good as sent for the user; offline they are told it waits for the connection.
      if (navigator.onLine === false) showMessage(texts.sentWhenOnline, 'info');
      else showMessage(texts.messageSent, 'success');
      setSubject('');
      setMessage('');
    } catch {
      showMessage(texts.somethingWentWrong, 'error');
    } finally {
      setSending(false);
    }
  }

  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth="720px">
      <Card.Header>
        <Heading as="h1" textStyle="h1">
          Contact Us
        </Heading>
        <Text color="fg.muted">{texts.contactIntro}</Text>
      </Card.Header>
      <Card.Body>
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
              <Button type="submit" colorPalette="brand" loading={sending} minWidth="120px">
                Send
              </Button>
            </Stack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
