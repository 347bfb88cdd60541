import type { ReactNode } from 'react';
import { Box, chakra, Portal, Stack, Text, Tooltip } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import type { LucideIcon } from 'lucide-react';
import { iconSize } from '../../components/theme-tokens.ts';
import type { NavItem, NavSection } from './nav-items.ts';

/** Shared look of a navigation row, for links and for the action buttons (Logout, Upload Files). */
export const navRowStyles = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  width: '100%',
  minHeight: '44px',
  px: '3',
  borderRadius: 'l2',
  color: 'portal.nav',
  fontWeight: 'medium',
  textDecoration: 'none',
  cursor: 'pointer',
  transitionProperty: 'background, color',
  transitionDuration: 'fast',
  focusVisibleRing: 'outside',
  focusRingColor: 'brand.focusRing',
  _hover: { bg: 'brand.subtle', color: 'brand.fg' },
  // TanStack Router marks the active link with aria-current="page".
  _currentPage: { bg: 'brand.solid', color: 'brand.contrast', _hover: { bg: 'brand.solid', color: 'brand.contrast' } },
} as const;

/**
 * A collapsed rail shows icons only; the label moves into a tooltip and the accessible name so
 * the link is still announced and discoverable.
 */
export function RailTooltip({ label, collapsed, children }: { label: string; collapsed: boolean; children: ReactNode }) {
  if (!collapsed) return <>{children}</>;
  return (
    <Tooltip.Root positioning={{ placement: 'right' }} openDelay={200}>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content>{label}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}

export function NavSectionTitle({ title, collapsed = false }: { title: string; collapsed?: boolean }) {
  if (collapsed) return <Box as="hr" borderColor="portal.border" my="2" aria-hidden="true" />;
  return (
    <Text as="h2" px="3" pt="4" pb="1" fontSize="xs" fontWeight="bold" textTransform="uppercase" color="portal.text">
      {title}
    </Text>
  );
}

export function NavLink({ item, collapsed, onNavigate }: { item: NavItem; collapsed: boolean; onNavigate?: () => void }) {
  const Icon = item.icon;
  return (
    <RailTooltip label={item.label} collapsed={collapsed}>
      <Box asChild {...navRowStyles} justifyContent={collapsed ? 'center' : 'flex-start'}>
        <Link
          {...item.link}
          // Search params (the queue's tab and search) do not change which page the item stands for.
          activeOptions={{ exact: item.exact ?? false, includeSearch: false }}
          aria-label={collapsed ? item.label : undefined}
          onClick={onNavigate}
        >
          <Icon size={iconSize} aria-hidden="true" />
          {!collapsed && <span>{item.label}</span>}
        </Link>
      </Box>
    </RailTooltip>
  );
}

/** A row that runs an action instead of navigating (Logout in the drawer). */
export function NavActionRow({ label, icon: Icon, onClick }: { label: string; icon: LucideIcon; onClick: () => void }) {
  return (
    <chakra.button type="button" {...navRowStyles} bg="transparent" border="none" textAlign="start" onClick={onClick}>
      <Icon size={iconSize} aria-hidden="true" />
      <span>{label}</span>
    </chakra.button>
  );
}

export function NavSections({
  sections,
  collapsed = false,
  onNavigate,
}: {
  sections: NavSection[];
  collapsed?: boolean;
  /** Called after a link is followed; the drawer closes itself with it. */
  onNavigate?: () => void;
}) {
  return (
    <>
      {sections.map((section) => (
        <Box key={section.title} as="section" aria-label={section.title}>
          <NavSectionTitle title={section.title} collapsed={collapsed} />
          <Stack as="ul" gap="1" listStyle="none" m="0" p="0">
            {section.items.map((item) => (
              <li key={item.label}>
                <NavLink item={item} collapsed={collapsed} onNavigate={onNavigate} />
              </li>
            ))}
          </Stack>
        </Box>
      ))}
    </>
  );
}
