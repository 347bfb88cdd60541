import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import { Badge, Card, Center, Heading, HStack, SegmentGroup, Spinner, Text } from '@chakra-ui/react';
import { useNavigate } from '@tanstack/react-router';
import { ShieldAlert } from 'lucide-react';
import { texts } from '../../../domain/texts.ts';
import { ApiError, NetworkError } from '../../lib/api.ts';
import { useProfile } from '../../lib/replica.ts';
import { showMessage } from '../../lib/ui-state.ts';

export const adminOnlyText = 'This page is for administrators only.';

/** Spec section 9: the wait before an unauthorised admin is sent to /login. */
export const unauthorizedRedirectMs = 3000;

/** The admin pages' frame: the ADMIN label, and for a non-admin a clear refusal instead of the form. */
export function AdminPanel({ title, children }: { title: string; children: ReactNode }) {
  const profile = useProfile();
  return (
    <Card.Root variant="elevated" bg="portal.white" maxWidth="640px">
      <Card.Header>
        <HStack gap="3">
          <Heading as="h1" textStyle="h1">
            {title}
          </Heading>
          <Badge colorPalette="brand" variant="solid">
            ADMIN
          </Badge>
        </HStack>
      </Card.Header>
      <Card.Body>
        {profile === undefined ? (
          <Center py="8">
            <Spinner color="brand.solid" aria-label="Loading" />
          </Center>
        ) : profile?.isAdmin ? (
          children
        ) : (
          // The server refuses these calls with 403 too; this only saves the user a pointless form.
          <HStack role="alert" gap="3" p="4" borderRadius="l2" bg="orange.50" color="orange.800" borderWidth="1px" borderColor="orange.200">
            <ShieldAlert size={22} />
            <Text fontWeight="medium">{adminOnlyText}</Text>
          </HStack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

/**
 * The spec's admin failure handling: 401 says so and goes to /login after 3 s; no connection says
 * it needs one; anything else shows the server's own message.
 */
function useAdminFailure(): (err: unknown) => void {
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
      if (err instanceof ApiError && err.status === 401) {
        showMessage(texts.adminUnauthorized, 'error');
        if (timer.current) clearTimeout(timer.current);
        timer.current = setTimeout(() => void navigate({ to: '/login' }), unauthorizedRedirectMs);
      } else if (err instanceof NetworkError) {
        showMessage(texts.needsConnection, 'warning');
      } else {
        showMessage(err instanceof Error && err.message ? err.message : texts.somethingWentWrong, 'error');
      }
    },
    [navigate],
  );
}

/**
 * Sends an admin action: online only (it says so up front instead of failing silently), one at a time,
 * the success text on success, the spec's failure handling otherwise.
 */
export function useAdminSubmit(): { sending: boolean; submit(send: () => Promise<unknown>, success: string, reset: () => void): Promise<void> } {
  const [sending, setSending] = useState(false);
  const onFailure = useAdminFailure();
  async function submit(send: () => Promise<unknown>, success: string, reset: () => void) {
    if (typeof navigator !== 'undefined' && navigator.onLine === false) {
      showMessage(texts.needsConnection, 'warning');
      return;
    }
    setSending(true);
    try {
      await send();
      showMessage(success, 'success');
      reset();
    } catch (err) {
      onFailure(err);
    } finally {
      setSending(false);
    }
  }
  return { sending, submit };
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
