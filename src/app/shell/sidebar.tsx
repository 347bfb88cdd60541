import { Box, Button, IconButton } from '@chakra-ui/react';
import { Upload } from 'lucide-react';
import { iconSize, sidebarWidthPx } from '../../components/theme-tokens.ts';
import { BrandMark } from './brand-mark.tsx';
import { myFilesItem, navSections } from './nav-items.ts';
import { NavLink, NavSections, NavSectionTitle, RailTooltip } from './nav-list.tsx';

/** Width of the collapsed rail: one 22px icon plus the row padding, centred. */
export const collapsedSidebarWidthPx = 72;

export interface SidebarProps {
  isAdmin: boolean;
  isStaff?: boolean;
  /** Collapsed shows an icon rail instead of hiding navigation altogether. */
  collapsed: boolean;
  onUploadFiles(): void;
}

/** The desktop (768px and up) navigation. Under 768px the shell renders MobileDrawer instead. */
export function Sidebar({ isAdmin, isStaff = false, collapsed, onUploadFiles }: SidebarProps) {
  return (
    <Box
      as="aside"
      data-collapsed={collapsed || undefined}
      flexShrink={0}
      width={`${collapsed ? collapsedSidebarWidthPx : sidebarWidthPx}px`}
      height="100dvh"
      position="sticky"
      top="0"
      bg="portal.white"
      borderRightWidth="1px"
      borderColor="portal.border"
      overflowY="auto"
      overflowX="hidden"
      transitionProperty="width"
      transitionDuration="moderate"
      px={collapsed ? '2' : '4'}
      pb="6"
    >
      <BrandMark compact={collapsed} />
      <Box as="nav" aria-label="Main navigation">
        <NavSections sections={navSections(isAdmin, isStaff)} collapsed={collapsed} />
      </Box>
      <Box as="section" aria-label="General Files">
        <NavSectionTitle title="General Files" collapsed={collapsed} />
        <NavLink item={myFilesItem} collapsed={collapsed} />
        {collapsed ? (
          <RailTooltip label="Upload Files" collapsed>
            <IconButton aria-label="Upload Files" colorPalette="brand" width="100%" onClick={onUploadFiles}>
              <Upload size={iconSize} />
            </IconButton>
          </RailTooltip>
        ) : (
          <Box px="3" pt="1">
            <Button colorPalette="brand" width="100%" onClick={onUploadFiles}>
              <Upload size={iconSize} aria-hidden="true" />
              Upload Files
            </Button>
          </Box>
        )}
      </Box>
    </Box>
  );
}
