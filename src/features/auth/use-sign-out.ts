import { useNavigate } from '@tanstack/react-router';
import { signOut } from '../../lib/firebase.ts';

/** Placeholder until the sign-out machine lands. */
export function useSignOut(): () => void {
  const navigate = useNavigate();
  return () => void signOut().then(() => navigate({ to: '/login' }));
}
