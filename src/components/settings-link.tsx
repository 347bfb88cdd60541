import { IconButton } from '@chakra-ui/react';
import { Link } from '@tanstack/react-router';
import { Settings } from 'lucide-react';
import { iconSize } from './theme-tokens.ts';

/** The user card's settings button (the shell's card and the dashboard's welcome card, which stands in for it). */
export function SettingsLink() {
  return (
    <IconButton aria-label="Settings" variant="ghost" color="portal.nav" borderRadius="full" asChild>
      <Link to="/settings">
        <Settings size={iconSize} />
      </Link>
    </IconButton>
  );
}
