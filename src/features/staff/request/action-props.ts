import { useState } from 'react';
import type { StaffRequest } from '../../../../domain/staff.ts';
import type { Attempt, FieldError } from '../shared/use-versioned-action.ts';

/** What every action form of the request page gets. */
export interface ActionFormProps {
  request: StaffRequest;
  /** An action is being sent or the page is reloading: acting now would use a stale version. */
  busy: boolean;
  /** This page's one sender; it handles conflicts and refusals, a form only shows field errors. */
  perform(attempt: Attempt): Promise<'ok' | FieldError | null>;
}

/** The form's own "sending" (its button spins), over the page's shared sender. */
export function useFormSend(perform: ActionFormProps['perform']) {
  const [sending, setSending] = useState(false);
  async function send(attempt: Attempt) {
    setSending(true);
    try {
      return await perform(attempt);
    } finally {
      setSending(false);
    }
  }
  return { sending, send };
}
