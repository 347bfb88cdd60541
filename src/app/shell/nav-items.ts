import {
  ArrowLeftRight,
  Blocks,
  Globe,
  Headset,
  Landmark,
  LayoutDashboard,
  Radar,
  BellPlus,
  FolderOpen,
  UserPlus,
  type LucideIcon,
} from 'lucide-react';
import { tools, type ToolIcon } from '../../../domain/tools.ts';

export interface NavItem {
  label: string;
  /**
   * A plain string path: the route tree is generated from src/routes, and a typed route literal
   * would tie the shell to the route files' parameter names.
   */
  to: string;
  icon: LucideIcon;
  /** Only `/` needs this: every path starts with it, so prefix matching would always mark it. */
  exact?: boolean;
}

export interface NavSection {
  title: string;
  items: NavItem[];
}

const toolIcons: Record<ToolIcon, LucideIcon> = {
  radar: Radar,
  globe: Globe,
  blocks: Blocks,
  landmark: Landmark,
  'arrow-left-right': ArrowLeftRight,
};

/** The General Files section's link, above its Upload Files button. */
export const myFilesItem: NavItem = { label: 'My Files', to: '/files', icon: FolderOpen };

/** Sidebar and drawer share this list, so the two layouts cannot drift apart. */
export function navSections(isAdmin: boolean): NavSection[] {
  const sections: NavSection[] = [
    { title: 'Overview', items: [{ label: 'Dashboard', to: '/', icon: LayoutDashboard, exact: true }] },
    {
      title: 'Tools',
      items: tools.map((tool) => ({ label: tool.header, to: `/tool/${tool.id}`, icon: toolIcons[tool.icon] })),
    },
    { title: 'Help', items: [{ label: 'Contact Support', to: '/contact-us', icon: Headset }] },
  ];
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
