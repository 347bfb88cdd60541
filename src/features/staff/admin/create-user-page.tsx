import { type FormEvent, useState } from 'react';
import { Field, Input, NativeSelect, SimpleGrid, Stack } from '@chakra-ui/react';
import { z } from 'zod';
import { Profile } from '../../../../domain/schemas.ts';
import { texts } from '../../../../domain/texts.ts';
import { apiSend } from '../../../lib/api.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { AdminPanel, CreateButton, Toggle, useAdminSubmit } from './admin-shared.tsx';

type Mode = 'New User' | 'Existing User';

const emptyNewUser = { firstName: '', lastName: '', email: '', phone: '', country: '' };
type NewUserFields = typeof emptyNewUser;

const newUserFields: { key: keyof NewUserFields; label: string; type: string; autoComplete: string; max: number }[] = [
  { key: 'firstName', label: 'First Name', type: 'text', autoComplete: 'off', max: 100 },
  { key: 'lastName', label: 'Last Name', type: 'text', autoComplete: 'off', max: 100 },
  { key: 'email', label: 'Email', type: 'email', autoComplete: 'off', max: 254 },
  { key: 'phone', label: 'Phone Number', type: 'tel', autoComplete: 'off', max: 40 },
  { key: 'country', label: 'Country', type: 'text', autoComplete: 'off', max: 100 },
];

const CreatedUser = z.object({ uid: z.string(), email: z.string() });

/** Admin: create a new user (account, profile, set-password email) or approve / withdraw an existing one. */
export function CreateUserPage() {
  const [mode, setMode] = useState<Mode>('New User');
  return (
    <AdminPanel title="Create User">
      <Stack gap="5">
        <Toggle value={mode} options={['New User', 'Existing User']} label="User type" onChange={setMode} />
        {mode === 'New User' ? <NewUserForm /> : <ExistingUserForm />}
      </Stack>
    </AdminPanel>
  );
}

export function NewUserForm() {
  const [values, setValues] = useState<NewUserFields>(emptyNewUser);
  const { sending, submit } = useAdminSubmit();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const body = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as NewUserFields;
    if (Object.values(body).some((v) => !v)) {
      showMessage(texts.missingInformation, 'error');
      return;
    }
    await submit(() => apiSend('/admin/users', 'POST', body, CreatedUser), texts.userCreated, () => setValues(emptyNewUser));
  }

  return (
    // noValidate: an incomplete form must say "Missing information", not the browser's own bubble.
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          {newUserFields.map((f) => (
            <Field.Root key={f.key} required>
              <Field.Label>
                {f.label} <Field.RequiredIndicator />
              </Field.Label>
              <Input
                type={f.type}
                autoComplete={f.autoComplete}
                maxLength={f.max}
                value={values[f.key]}
                onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
              />
            </Field.Root>
          ))}
        </SimpleGrid>
        <CreateButton sending={sending} />
      </Stack>
    </form>
  );
}

export function ExistingUserForm() {
  const [recordModule, setRecordModule] = useState('');
  const [recordId, setRecordId] = useState('');
  const { sending, submit } = useAdminSubmit();

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (sending) return;
    const id = recordId.trim();
    if (!id || (recordModule !== 'leads' && recordModule !== 'contacts')) {
      showMessage(texts.missingInformation, 'error');
      return;
    }
    await submit(() => apiSend('/admin/users/link', 'POST', { recordId: id, recordModule }, Profile), texts.userLinked, () => setRecordId(''));
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
          <Field.Root required>
            <Field.Label>
              Type Of Client <Field.RequiredIndicator />
            </Field.Label>
            <NativeSelect.Root>
              <NativeSelect.Field value={recordModule} onChange={(e) => setRecordModule(e.target.value)}>
                <option value="" disabled>
                  Select a type
                </option>
                <option value="leads">Lead</option>
                <option value="contacts">Client</option>
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          </Field.Root>
          <Field.Root required>
            <Field.Label>
              User ID <Field.RequiredIndicator />
            </Field.Label>
            <Input value={recordId} maxLength={128} autoComplete="off" onChange={(e) => setRecordId(e.target.value)} />
          </Field.Root>
        </SimpleGrid>
        <CreateButton sending={sending} />
      </Stack>
    </form>
  );
}
