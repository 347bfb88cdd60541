import type { ReactNode } from 'react';
import { Box, HStack, IconButton, Spacer } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { LogOut, Menu, MessagesSquare, RefreshCw } from 'lucide-react';
import { iconSize } from '../../components/theme-tokens.ts';
import { BrandMark } from './brand-mark.tsx';

export interface TopBarProps {
  isMobile: boolean;
  /** Desktop: whether the sidebar is expanded. Mobile: whether the drawer is open. */
  menuExpanded: boolean;
  /** Desktop: collapse or expand the sidebar. Mobile: open the drawer. */
  onMenuClick(): void;
  onRefresh(): void;
  onLogout(): void;
  notificationsSlot?: ReactNode;
  statusSlot?: ReactNode;
}

const toolbarButton = { variant: 'ghost', color: 'portal.nav', borderRadius: 'full', size: 'md' } as const;

/**
 * Chakra's md buttons draw their icons at 20px whatever size the icon asks for; the spec's icons are 22px.
 * Scoped to the toolbar (its own buttons and the slots' bell and outbox) and to icons that ask for 22px, so
 * a deliberately small icon (the "Can't sync" badge's) keeps its size.
 */
const spec22pxIcons = { [`& :is(button, a) > svg[width="${iconSize}"]`]: { width: `${iconSize}px`, height: `${iconSize}px` } };

export function TopBar({
  isMobile,
  menuExpanded,
  onMenuClick,
  onRefresh,
  onLogout,
  notificationsSlot,
  statusSlot,
}: TopBarProps) {
  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg="portal.white"
      borderBottomWidth="1px"
      borderColor="portal.border"
      css={spec22pxIcons}
    >
      <HStack gap="1" px={{ base: '2', md: '4' }} minHeight="64px">
        <IconButton
          {...toolbarButton}
          // The label stays fixed and aria-expanded carries the state, as for any disclosure button.
          aria-label={isMobile ? 'Open menu' : 'Collapse menu'}
          aria-expanded={menuExpanded}
          onClick={onMenuClick}
        >
          <Menu size={iconSize} />
        </IconButton>
        {isMobile && <BrandMark compact />}
        <Spacer />
        {statusSlot}
        <IconButton {...toolbarButton} aria-label="Refresh page" onClick={onRefresh}>
          <RefreshCw size={iconSize} />
        </IconButton>
        {notificationsSlot}
        <IconButton {...toolbarButton} aria-label="Contact requests" asChild>
          <Link to="/contact-requests">
            <MessagesSquare size={iconSize} />
          </Link>
        </IconButton>
        <IconButton {...toolbarButton} aria-label="Log out" onClick={onLogout}>
          <LogOut size={iconSize} />
        </IconButton>
      </HStack>
    </Box>
  );
}
