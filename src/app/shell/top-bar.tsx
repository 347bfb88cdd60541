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
