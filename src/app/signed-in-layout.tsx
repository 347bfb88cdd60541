import { useNavigate } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { texts } from '../../domain/texts.ts';
import { SignOutDialog } from '../features/auth/sign-out-dialog.tsx';
import { usePresence } from '../features/auth/use-presence.ts';
import { useSignOut } from '../features/auth/use-sign-out.ts';
import { UploadFilesModal } from '../features/files/upload-files-modal.tsx';
import { NotificationsPopover } from '../features/notifications/notifications-popover.tsx';
import { OfflineIndicator } from '../features/offline/offline-indicator.tsx';
import { loadProfile, requestPull, startDataServices } from '../lib/data-services.ts';
import { type PortalDb, openUserDb } from '../lib/db.ts';
import { signOut } from '../lib/firebase.ts';
import { requestPersistentStorage } from '../lib/pwa.ts';
import { ReplicaContext, displayName, useProfile } from '../lib/replica.ts';
import { setLoading, showMessage } from '../lib/ui-state.ts';
import { AppLayout } from './shell/app-layout.tsx';

/**
 * The shell of a signed-in user: opens their replica, keeps it in sync, and renders from it.
 * The network only fills Dexie, so with a profile on the device the shell shows at once, offline too.
 */
export function SignedInLayout({ uid, children }: { uid: string; children: ReactNode }) {
  const db = openUserDb(uid);
  useEffect(() => startDataServices(db), [db]);
  useEffect(() => {
    void requestPersistentStorage();
  }, []);
  return (
    <ReplicaContext.Provider value={db}>
      <ProfileGate db={db}>{children}</ProfileGate>
    </ReplicaContext.Provider>
  );
}

function ProfileGate({ db, children }: { db: PortalDb; children: ReactNode }) {
  const profile = useProfile();
  const navigate = useNavigate();
  const onLogout = useSignOut();
  const [uploadOpen, setUploadOpen] = useState(false);
  usePresence(db.uid);

  useEffect(() => {
    let cancelled = false;
    loadProfile(db).catch(async () => {
      if (cancelled) return;
      // Spec: a failed profile load shows the message, goes to /login and turns the loader off.
      showMessage(texts.tryAgainLater, 'error');
      await signOut().catch(() => undefined);
      await navigate({ to: '/login' });
      setLoading(false);
    });
    return () => {
      cancelled = true;
    };
  }, [db, navigate]);

  if (!profile) return null;
  return (
    <AppLayout
      displayName={displayName(profile)}
      isAdmin={profile.isAdmin}
      isStaff={profile.isStaff || profile.isAdmin}
      onLogout={onLogout}
      onRefresh={() => void requestPull(db)}
      onUploadFiles={() => setUploadOpen(true)}
      notificationsSlot={<NotificationsPopover />}
      statusSlot={<OfflineIndicator />}
    >
      {children}
      <UploadFilesModal open={uploadOpen} onClose={() => setUploadOpen(false)} />
      <SignOutDialog />
    </AppLayout>
  );
}
