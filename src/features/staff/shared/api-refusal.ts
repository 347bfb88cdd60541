import { ApiError } from '../../../lib/api-errors.ts';
import { failureText } from '../../../lib/use-online-action.ts';

/** What a refused staff write means for the screen (docs/decisions/006-staff-workspace.md). */
export type Refusal =
  /** Someone else saved first: `current` is the record as it is now, when the server sent it. */
  | { kind: 'conflict'; current: unknown }
  /** The action does not fit the record's state any more (status moved on): say so and reload. */
  | { kind: 'not-allowed'; message: string }
  /** One field was wrong ("amount: …"): shown under that field. */
  | { kind: 'field'; field: string; message: string }
  | { kind: 'other'; message: string };

export function readRefusal(err: unknown): Refusal {
  if (err instanceof ApiError) {
    if (err.code === 'VERSION_CONFLICT') return { kind: 'conflict', current: err.details?.current };
    // REFUND_DECIDED: someone decided that refund first; the reload shows their decision.
    if (err.code === 'ILLEGAL_TRANSITION' || err.code === 'ACTION_NOT_ALLOWED' || err.code === 'REFUND_DECIDED') return { kind: 'not-allowed', message: err.message };
    if (err.code === 'VALIDATION_FAILED') {
      const match = /^([A-Za-z][\w.]*): (.+)$/s.exec(err.message);
      if (match) return { kind: 'field', field: match[1], message: match[2] };
    }
  }
  return { kind: 'other', message: failureText(err) };
}
