import { Box } from '@chakra-ui/react';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import type { Profile } from '../../domain/schemas.ts';
import { texts } from '../../domain/texts.ts';
import { SecondFactorGate, whenSecondFactorVerified } from '../features/auth/second-factor-gate.tsx';
import { SignOutDialog } from '../features/auth/sign-out-dialog.tsx';
import { usePresence } from '../features/auth/use-presence.ts';
import { useSignOut, useSignOutWhenSessionEnds } from '../features/auth/use-sign-out.ts';
import { StepUpDialog } from '../components/step-up-dialog.tsx';
import { getSessionSignals, isSecondFactorRequired } from '../lib/session-signals.ts';
import { UploadFilesModal } from '../features/client/files/upload-files-modal.tsx';
import { NotificationsPopover } from '../features/client/notifications/notifications-popover.tsx';
import { OfflineIndicator } from '../features/offline/offline-indicator.tsx';
import { type PortalDb, openUserDb } from '../lib/db.ts';
import { signOut } from '../lib/firebase.ts';
import { loadProfile } from '../lib/load-profile.ts';
import { requestPersistentStorage } from '../lib/pwa.ts';
import { syncThisDevice, watchPushMessages } from '../lib/push.ts';
import { CommandEditorsContext } from '../lib/sync/commands/editor-context.ts';
import { greetingName } from '../lib/display-name.ts';
import { hasRole } from '../../domain/roles.ts';
import { ReplicaContext, useProfile } from '../lib/replica.ts';
import { createSyncEngine } from '../lib/sync/engine.ts';
import { SyncEngineContext, useSyncEngine } from '../lib/sync/use-sync-engine.ts';
import { setLoading, showMessage } from '../lib/ui-state.ts';
import { commandEditors } from './feature-edit-dialogs.tsx';
import { AppLayout } from './shell/app-layout.tsx';

/**
 * The shell of a signed-in user: opens their replica, keeps it in sync (one sync engine, started here and
 * stopped when the user or the layout goes), and renders from it. The network only fills Dexie, so with a
 * profile on the device the shell shows at once, offline too.
 */
export function SignedInLayout({ uid, children }: { uid: string; children: ReactNode }) {
  const db = openUserDb(uid);
  const engine = useMemo(() => createSyncEngine(db), [db]);
  useEffect(() => {
    const stop = engine.start();
    return () => void stop();
  }, [engine]);
  useEffect(() => {
    void requestPersistentStorage();
  }, []);
  usePushOnThisDevice(db);
  return (
    <ReplicaContext.Provider value={db}>
      <SyncEngineContext.Provider value={engine}>
        <CommandEditorsContext.Provider value={commandEditors}>
          <ProfileGate db={db}>{children}</ProfileGate>
        </CommandEditorsContext.Provider>
      </SyncEngineContext.Provider>
    </ReplicaContext.Provider>
  );
}

/**
 * Web Push for the signed-in user: this device's subscription is renewed and given to the server on every start,
 * on every return online and when the push service replaced it (never with a prompt: lib/push.ts), and a
 * notification's click opens its screen here with the router.
 */
function usePushOnThisDevice(db: PortalDb): void {
  const router = useRouter();
  useEffect(() => {
    const sync = () => void syncThisDevice(db).catch((err: unknown) => console.warn('push subscription not renewed', err));
    sync();
    window.addEventListener('online', sync);
    const stop = watchPushMessages({ navigate: (href) => void router.navigate({ href }), subscriptionChanged: sync });
    return () => {
      window.removeEventListener('online', sync);
      stop();
    };
  }, [db, router]);
}

function ProfileGate({ db, children }: { db: PortalDb; children: ReactNode }) {
  const profile = useProfile();
  const navigate = useNavigate();
  const router = useRouter();
  const onLogout = useSignOut();
  const engine = useSyncEngine();
  const [uploadOpen, setUploadOpen] = useState(false);
  usePresence(db.uid);
  useGuardsFollowRoles(profile);
  useSignOutWhenSessionEnds();

  // The profile is refused until an account with a second factor has verified it in this session: the gate asks.
  const [waitingForFactor, setWaitingForFactor] = useState(false);
  useEffect(() => {
    let cancelled = false;
    const load = (): Promise<void> =>
      loadProfile(db).then(
        () => undefined,
        async (err: unknown) => {
          // A session the server ended has its own way out, with its reason (useSignOutWhenSessionEnds).
          if (cancelled || getSessionSignals().ended) return;
          if (isSecondFactorRequired(err)) {
            setWaitingForFactor(true);
            setLoading(false);
            await whenSecondFactorVerified(db);
            if (cancelled) return;
            setWaitingForFactor(false);
            await load();
            // The route guards ran without the roles: they read them now.
            await router.invalidate();
            return;
          }
          // Spec: a failed profile load shows the message, goes to /login and turns the loader off.
          showMessage(texts.tryAgainLater, 'error');
          await signOut().catch(() => undefined);
          await navigate({ to: '/login' });
          setLoading(false);
        },
      );
    void load().catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [db, navigate, router]);

  if (!profile) {
    return waitingForFactor ? (
      <Box maxWidth="560px" mx="auto" px="4" py={{ base: '6', md: '16' }}>
        <SecondFactorGate check>{null}</SecondFactorGate>
        <SignOutDialog />
      </Box>
    ) : null;
  }
  return (
    <AppLayout
      displayName={greetingName(profile)}
      isAdmin={hasRole(profile, 'admin')}
      isStaff={hasRole(profile, 'staff')}
      onLogout={onLogout}
      onRefresh={() => void engine.pullEverything().catch((err) => console.error('refresh failed', err))}
      onUploadFiles={() => setUploadOpen(true)}
      notificationsSlot={<NotificationsPopover />}
      statusSlot={<OfflineIndicator />}
    >
      {children}
      <UploadFilesModal open={uploadOpen} onClose={() => setUploadOpen(false)} />
      <SignOutDialog />
      <StepUpDialog />
    </AppLayout>
  );
}

/**
 * The route guards read the roles when a page opens; a role granted or taken away by a sync while a page is
 * open re-runs them, so a revoked staff member leaves the workspace without having to navigate.
 */
function useGuardsFollowRoles(profile: Profile | null | undefined): void {
  const router = useRouter();
  const roles = profile ? `${profile.isClient}/${profile.isStaff}/${profile.isAdmin}` : null;
  const checked = useRef(roles);
  useEffect(() => {
    if (roles === null || roles === checked.current) return;
    const first = checked.current === null;
    checked.current = roles;
    // The guards awaited this very profile before the first page showed.
    if (!first) void router.invalidate();
  }, [roles, router]);
}
