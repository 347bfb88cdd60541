import { Box, Button, CloseButton, Drawer, Portal } from '@chakra-ui/react';
import { LogOut, Upload } from 'lucide-react';
import { aboveQuickExit, iconSize, sidebarWidthPx } from '../../components/theme-tokens.ts';
import { BrandMark } from './brand-mark.tsx';
import { myFilesItem, navSections, notificationsItem } from './nav-items.ts';
import { NavActionRow, NavLink, NavSections, NavSectionTitle } from './nav-list.tsx';

export interface MobileDrawerProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  isAdmin: boolean;
  isStaff?: boolean;
  onUploadFiles(): void;
  onLogout(): void;
}

/** Navigation under 768px: the sidebar's sections plus a User section, in a modal drawer. */
export function MobileDrawer({ open, onOpenChange, isAdmin, isStaff = false, onUploadFiles, onLogout }: MobileDrawerProps) {
  const close = () => onOpenChange(false);
  // The drawer traps focus; it must be gone before a modal (upload) or a sign-out takes over.
  const closeThen = (action: () => void) => () => {
    close();
    action();
  };
  const userSection = { title: 'User', items: [notificationsItem] };

  return (
    <Drawer.Root open={open} onOpenChange={(details) => onOpenChange(details.open)} placement="start">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          <Drawer.Content width={`${sidebarWidthPx}px`} maxWidth="85vw" boxShadow="none">
            <Drawer.Header px="4" py="0">
              <Drawer.Title asChild>
                <Box flex="1">
                  <BrandMark />
                </Box>
              </Drawer.Title>
            </Drawer.Header>
            <Drawer.Body px="4" pb="6">
              <Box as="nav" aria-label="Main navigation">
                <NavSections sections={navSections(isAdmin, isStaff)} onNavigate={close} />
              </Box>
              <Box as="section" aria-label="General Files">
                <NavSectionTitle title="General Files" />
                <NavLink item={myFilesItem} collapsed={false} onNavigate={close} />
                <Box px="3" pt="1">
                  <Button colorPalette="brand" width="100%" onClick={closeThen(onUploadFiles)}>
                    <Upload size={iconSize} aria-hidden="true" />
                    Upload Files
                  </Button>
                </Box>
              </Box>
              <Box as="nav" aria-label="User menu">
                <NavSections sections={[userSection]} onNavigate={close} />
                <NavActionRow label="Logout" icon={LogOut} onClick={closeThen(onLogout)} />
              </Box>
            </Drawer.Body>
            {/* Room for "Leave quickly" (fixed bottom left, above every layer): the rows scroll above it, so it
                never covers one (a tap meant for Logout once left the portal without signing out). */}
            <Box flexShrink={0} height={aboveQuickExit} aria-hidden="true" data-testid="quick-exit-room" />
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label="Close menu" position="absolute" top="3" insetEnd="2" />
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
