import { ArrowLeftRight, Blocks, Globe, Landmark, type LucideIcon, Radar } from 'lucide-react';
import type { ToolIcon as ToolIconName } from '../../../domain/tools.ts';

/** The spec's icon size (section 9); a feature cannot read the app theme, so it is repeated here. */
export const ICON_SIZE = 22;

const icons: Record<ToolIconName, LucideIcon> = {
  radar: Radar,
  globe: Globe,
  blocks: Blocks,
  landmark: Landmark,
  'arrow-left-right': ArrowLeftRight,
};

export function ToolIcon({ icon, size = ICON_SIZE }: { icon: ToolIconName; size?: number }) {
  const Icon = icons[icon];
  return <Icon size={size} aria-hidden="true" />;
}
