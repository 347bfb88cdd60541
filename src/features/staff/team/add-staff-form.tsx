import { Button, Field, Input, Stack } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { z } from 'zod';
import { StaffClient, TeamMember } from '../../../../domain/staff.ts';
import { apiGet, apiSend } from '../../../lib/api.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { useOnlineAction } from '../../../lib/use-online-action.ts';
import { readRefusal } from '../shared/api-refusal.ts';

const Email = z.email('Enter a valid email address');

/** Adds a staff member by email: finds the account first, then grants the role on the version just read. */
export function AddStaffForm({ onAdded }: { onAdded(): void }) {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const { running, run } = useOnlineAction();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const checked = Email.safeParse(email.trim());
    if (!checked.success) {
      setError(checked.error.issues[0]?.message);
      return;
    }
    setError(undefined);
    const address = checked.data;
    const outcome = await run(async () => {
      const member = await apiGet(`/staff/users/lookup?email=${encodeURIComponent(address)}`, TeamMember);
      if (member.isStaff || member.isAdmin) return { already: true as const, member };
      await apiSend(`/staff/users/${encodeURIComponent(member.uid)}/role`, 'PUT', { version: member.version, staff: true }, StaffClient);
      return { already: false as const, member };
    });
    if (!outcome || (!outcome.ok && outcome.offline)) return;
    if (outcome.ok) {
      if (outcome.value.already) {
        showMessage(`${outcome.value.member.email} is already a staff member.`, 'info');
      } else {
        showMessage('Staff role granted successfully.', 'success');
        setEmail('');
        onAdded();
      }
      return;
    }
    const refusal = readRefusal(outcome.error);
    // The account changed between the lookup and the grant (another admin): sending again reads it afresh.
    if (refusal.kind === 'conflict') setError('This account was changed by someone else just now. Please try again.');
    else setError(refusal.message);
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Add a staff member">
      <Field.Root required invalid={!!error}>
        <Field.Label>
          Email <Field.RequiredIndicator />
        </Field.Label>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" width="100%">
          <Input type="email" autoComplete="off" maxLength={254} value={email} onChange={(e) => setEmail(e.target.value)} placeholder="name@example.com" />
          <Button type="submit" colorPalette="brand" loading={running} flexShrink={0}>
            Add staff member
          </Button>
        </Stack>
        <Field.ErrorText>{error}</Field.ErrorText>
      </Field.Root>
    </form>
  );
}
