import { type ReactNode, useCallback, useEffect, useRef } from 'react';
import { Button, Card, SegmentGroup } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { texts } from '../../../../domain/texts.ts';
import { SESSION_ENDED } from '../../../../domain/security.ts';
import { ApiError } from '../../../lib/api-errors.ts';
import { signOut } from '../../../lib/firebase.ts';
import { showMessage } from '../../../lib/ui-state.ts';
import { failureText, useOnlineAction } from '../../../lib/use-online-action.ts';
import { AdminHeading } from '../shared/admin-heading.tsx';

/** Spec section 9: the wait before an unauthorised admin is sent to /login. */
export const unauthorizedRedirectMs = 3000;

/** The admin pages' frame. Who may see them is the route's business (its guard refuses non-admins). */
export function AdminPanel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth="640px">
      <Card.Header>
        <AdminHeading title={title} />
      </Card.Header>
      <Card.Body>{children}</Card.Body>
    </Card.Root>
  );
}

/**
 * The spec's admin failure handling: 401 says so, signs out and goes to /login after 3 s; anything else shows the
 * server's own message. (No connection has been said by useOnlineAction already.)
 */
export function useAdminFailure(): (err: unknown) => void {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return useCallback(
    (err: unknown) => {
      // A session the server ended signs out on its own, with its reason (the signed-in layout).
      if (err instanceof ApiError && err.code === SESSION_ENDED) return;
      if (!(err instanceof ApiError && err.status === 401)) {
        showMessage(failureText(err), 'error');
        return;
      }
      showMessage(texts.adminUnauthorized, 'error');
      if (timer.current) clearTimeout(timer.current);
      // "You are navigated to login page": signed out first, or /login would send a still signed-in user back to /.
      timer.current = setTimeout(
        () => void signOut().catch((e: unknown) => console.error('sign-out after 401 failed', e)).then(() => navigate({ to: '/login' })),
        unauthorizedRedirectMs,
      );
    },
    [navigate],
  );
}

/** Sends an admin action through useOnlineAction: the success text and reset on success, the spec's failure handling otherwise. */
export function useAdminSubmit(): { sending: boolean; submit(send: () => Promise<unknown>, success: string, reset: () => void): Promise<void> } {
  const { running, run } = useOnlineAction();
  const onFailure = useAdminFailure();
  async function submit(send: () => Promise<unknown>, success: string, reset: () => void) {
    const outcome = await run(send);
    if (!outcome) return;
    if (outcome.ok) {
      showMessage(success, 'success');
      reset();
    } else if (!outcome.offline) {
      onFailure(outcome.error);
    }
  }
  return { sending: running, submit };
}

/** The admin screens' two-way toggle (General / Specific, New User / Existing User): selected is blue on white. */
export function Toggle<T extends string>({ value, options, label, onChange }: { value: T; options: readonly [NoInfer<T>, NoInfer<T>]; label: string; onChange(value: NoInfer<T>): void }) {
  return (
    <SegmentGroup.Root value={value} onValueChange={(e) => onChange(e.value === options[1] ? options[1] : options[0])} aria-label={label} alignSelf="start">
      <SegmentGroup.Indicator />
      <SegmentGroup.Items items={[...options]} px="4" cursor="pointer" />
    </SegmentGroup.Root>
  );
}

/** The admin forms' submit button. */
export function CreateButton({ sending }: { sending: boolean }) {
  return (
    <Button type="submit" colorPalette="brand" loading={sending} alignSelf={{ base: 'stretch', sm: 'end' }} minWidth="120px">
      Create
    </Button>
  );
}
