import { ArrowLeftRight, Blocks, Globe, Landmark, type LucideIcon, Radar } from 'lucide-react';
import type { ToolIcon as ToolIconName } from '../../domain/tools.ts';
import { iconSize } from './theme-tokens.ts';

/** The one map from a catalogue tool's icon name to its drawing: navigation, tables and pages use it. */
export const toolIcons: Record<ToolIconName, LucideIcon> = {
  radar: Radar,
  globe: Globe,
  blocks: Blocks,
  landmark: Landmark,
  'arrow-left-right': ArrowLeftRight,
};

/** Decorative: the tool's name always sits beside it, so it is hidden from screen readers. */
export function ToolIcon({ icon, size = iconSize }: { icon: ToolIconName; size?: number }) {
  const Icon = toolIcons[icon];
  return <Icon size={size} aria-hidden="true" />;
}
