import { useState, type ReactNode } from 'react';
import { Box, Flex, SkipNavContent, SkipNavLink } from '@chakra-ui/react';
import { useRouterState } from '@tanstack/react-router';
import { messageBarSpaceVar } from '../../components/theme-tokens.ts';
import { useIsMobile } from '../../lib/ui-state.ts';
import { Footer } from './footer.tsx';
import { MobileDrawer } from './mobile-drawer.tsx';
import { Sidebar } from './sidebar.tsx';
import { TopBar } from './top-bar.tsx';
import { useViewport } from './use-viewport.ts';
import { UserCard } from './user-card.tsx';

export interface AppLayoutProps {
  displayName: string;
  isAdmin: boolean;
  /** Support staff (admins included): shows the Staff section of the navigation. */
  isStaff?: boolean;
  onLogout(): void;
  onRefresh(): void;
  onUploadFiles(): void;
  /** The notifications popover (owned by the notifications feature). */
  notificationsSlot?: ReactNode;
  /** An offline / pending-sync indicator (owned by the sync feature). */
  statusSlot?: ReactNode;
  children: ReactNode;
}

/** The signed-in shell: sidebar or drawer, toolbar, user card, page content and footer. */
export function AppLayout({
  displayName,
  isAdmin,
  isStaff = false,
  onLogout,
  onRefresh,
  onUploadFiles,
  notificationsSlot,
  statusSlot,
  children,
}: AppLayoutProps) {
  useViewport();
  const isMobile = useIsMobile();
  const [sidebarCollapsed, setSidebarCollapsed] = useState(false);
  const [drawerRequested, setDrawerRequested] = useState(false);
  // Derived rather than reset in an effect: widening the window past 768px simply hides the drawer.
  const drawerOpen = isMobile && drawerRequested;
  // The dashboard's welcome card greets and links to Settings itself: a second greeting above it would repeat it.
  const onDashboard = useRouterState({ select: (s) => s.location.pathname === '/' });

  return (
    <Flex minHeight="100dvh" bg="portal.background">
      <SkipNavLink>Skip to content</SkipNavLink>
      {isMobile ? (
        <MobileDrawer
          open={drawerOpen}
          onOpenChange={setDrawerRequested}
          isAdmin={isAdmin}
          isStaff={isStaff}
          onUploadFiles={onUploadFiles}
          onLogout={onLogout}
        />
      ) : (
        <Sidebar isAdmin={isAdmin} isStaff={isStaff} collapsed={sidebarCollapsed} onUploadFiles={onUploadFiles} />
      )}
      <Flex direction="column" flex="1" minWidth="0">
        <TopBar
          isMobile={isMobile}
          menuExpanded={isMobile ? drawerOpen : !sidebarCollapsed}
          onMenuClick={() => (isMobile ? setDrawerRequested(true) : setSidebarCollapsed((c) => !c))}
          onRefresh={onRefresh}
          onLogout={onLogout}
          notificationsSlot={notificationsSlot}
          statusSlot={statusSlot}
        />
        <Box
          as="main"
          flex="1"
          px={{ base: '4', md: '6' }}
          pt={{ base: '4', md: '6' }}
          // While a message shows, room for it under the content, so the last rows can scroll out from under the bar.
          pb={{ base: `calc(1rem + var(${messageBarSpaceVar}, 0px))`, md: `calc(1.5rem + var(${messageBarSpaceVar}, 0px))` }}
          bg="portal.background"
        >
          <SkipNavContent />
          <Box maxWidth="1200px" mx="auto" width="100%">
            {onDashboard ? children : (
              <>
                <UserCard displayName={displayName} />
                <Box mt="6">{children}</Box>
              </>
            )}
          </Box>
        </Box>
        <Footer />
      </Flex>
    </Flex>
  );
}
