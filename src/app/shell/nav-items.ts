import { BellPlus, FolderOpen, Headset, LayoutDashboard, ListTodo, UserPlus, UsersRound, type LucideIcon } from 'lucide-react';
import { tools } from '../../../domain/tools.ts';
import { toolIcons } from '../../components/tool-icon.tsx';

export interface NavItem {
  label: string;
  /**
   * A plain string path: the route tree is generated from src/routes, and a typed route literal
   * would tie the shell to the route files' parameter names.
   */
  to: string;
  icon: LucideIcon;
  /** For a path others sit under (`/`, `/staff`), where prefix matching would mark it on their pages too. */
  exact?: boolean;
}

export interface NavSection {
  title: string;
  items: NavItem[];
}

/** The General Files section's link, above its Upload Files button. */
export const myFilesItem: NavItem = { label: 'My Files', to: '/files', icon: FolderOpen };

/** Sidebar and drawer share this list, so the two layouts cannot drift apart. */
export function navSections(isAdmin: boolean, isStaff = false): NavSection[] {
  const sections: NavSection[] = [
    { title: 'Overview', items: [{ label: 'Dashboard', to: '/', icon: LayoutDashboard, exact: true }] },
    {
      title: 'Tools',
      items: tools.map((tool) => ({ label: tool.header, to: `/tool/${tool.id}`, icon: toolIcons[tool.icon] })),
    },
    { title: 'Help', items: [{ label: 'Contact Support', to: '/contact-us', icon: Headset }] },
  ];
  // Admins are staff too. Only the workspace's people see it; the server refuses everyone else anyway.
  if (isStaff || isAdmin) {
    sections.push({
      title: 'Staff',
      items: [
        // Exact: the Team page sits under /staff as well and has its own item.
        { label: 'Queue', to: '/staff', icon: ListTodo, exact: true },
        ...(isAdmin ? [{ label: 'Team', to: '/staff/team', icon: UsersRound }] : []),
      ],
    });
  }
  if (isAdmin) {
    sections.push({
      title: 'Admin',
      items: [
        { label: 'Create Notification', to: '/create-notifications', icon: BellPlus },
        { label: 'Create User', to: '/create-user', icon: UserPlus },
      ],
    });
  }
  return sections;
}
