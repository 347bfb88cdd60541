import type { ToOptions } from '@tanstack/react-router';
import { Bell, BellPlus, Building2, FileText, FolderOpen, Headset, LayoutDashboard, ListTodo, MailWarning, ShieldCheck, UserPlus, UsersRound, type LucideIcon } from 'lucide-react';
import { tools } from '../../../domain/tools.ts';
import { toolIcons } from '../../components/tool-icon.tsx';

export interface NavItem {
  label: string;
  /** Typed by the route tree: renaming or removing a route breaks the build here instead of the link. */
  link: ToOptions;
  icon: LucideIcon;
  /** For a path others sit under (`/`, `/staff`), where prefix matching would mark it on their pages too. */
  exact?: boolean;
}

export interface NavSection {
  title: string;
  items: NavItem[];
}

/** The General Files section's link, above its Upload Files button. */
export const myFilesItem: NavItem = { label: 'My Files', link: { to: '/files' }, icon: FolderOpen };

/** The drawer's User section (the desktop toolbar has the bell instead). */
export const notificationsItem: NavItem = { label: 'Notifications', link: { to: '/notifications' }, icon: Bell };

/** Sidebar and drawer share this list, so the two layouts cannot drift apart. */
export function navSections(isAdmin: boolean, isStaff = false): NavSection[] {
  const sections: NavSection[] = [
    { title: 'Overview', items: [{ label: 'Dashboard', link: { to: '/' }, icon: LayoutDashboard, exact: true }] },
    {
      title: 'Tools',
      items: tools.map((tool) => ({ label: tool.header, link: { to: '/tool/$toolname', params: { toolname: tool.id } }, icon: toolIcons[tool.icon] })),
    },
    {
      title: 'Help',
      items: [
        { label: 'Contact Support', link: { to: '/contact-us' }, icon: Headset },
        { label: 'Case file', link: { to: '/case-file' }, icon: FileText },
        { label: 'Stay safe', link: { to: '/stay-safe' }, icon: ShieldCheck },
      ],
    },
  ];
  // Admins are staff too. Only the workspace's people see it; the server refuses everyone else anyway.
  if (isStaff || isAdmin) {
    sections.push({
      title: 'Staff',
      items: [
        // Exact: the Team page sits under /staff as well and has its own item.
        { label: 'Queue', link: { to: '/staff' }, icon: ListTodo, exact: true },
        ...(isAdmin ? [{ label: 'Team', link: { to: '/staff/team' }, icon: UsersRound } satisfies NavItem] : []),
      ],
    });
  }
  if (isAdmin) {
    sections.push({
      title: 'Admin',
      items: [
        { label: 'Create Notification', link: { to: '/create-notifications' }, icon: BellPlus },
        { label: 'Create User', link: { to: '/create-user' }, icon: UserPlus },
        { label: 'Business settings', link: { to: '/staff/business-settings' }, icon: Building2 },
        { label: 'Notification delivery', link: { to: '/staff/deliveries' }, icon: MailWarning },
      ],
    });
  }
  return sections;
}
