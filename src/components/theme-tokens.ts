/**
 * The spec's sizes and colours as plain values (spec section 9). They live with the shared UI rather than
 * in app/theme.ts so that features and shared components read the same figures the theme is built from.
 */

/** lucide-react draws at 24px unless told otherwise, so every icon is given this size. */
export const iconSize = 22;

/** The shell switches to the drawer layout under this width. */
export const mobileBreakpointPx = 768;

/** The drawer and the desktop sidebar are both this wide. */
export const sidebarWidthPx = 240;

/**
 * The named palette, as raw values for the rare places that cannot take a token (the SVG logo, canvas
 * charts). Everything else uses the `portal.*` colour tokens that app/theme.ts makes of it.
 */
export const palette = {
  text: '#2A3547',
  green: '#13DEB9',
  white: '#FFFFFF',
  background: '#F6F9FC',
  backgroundAlt: '#F2F6FA',
  blue: '#5D87FF',
  border: '#e5eaef',
  nav: '#5A6A85',
  // Darker than the design's #7C8FAC (3.3:1 on white): at least 4.5:1 (WCAG AA) on white, on both page greys and on
  // the pale brand tint (#ECF2FF), so secondary text stays readable wherever it sits.
  muted: '#5E6F8B',
} as const;

/**
 * Set on the root element while the message bar shows: the height it takes at the bottom of the viewport, gap
 * included. The page reserves that much room under its content and scrolls with that margin, so a message never
 * sits over what the user needs to see (the request just ordered, the last row of a table).
 */
export const messageBarSpaceVar = '--message-bar-space';

/**
 * On phones, the height from the viewport's bottom that "Leave quickly" holds (app/shell/quick-exit-button.tsx:
 * 12px up, a size-sm button 2.25rem high) plus an 8px gap: the message bar sits above it, and scrolling into view
 * stops above it.
 */
export const aboveQuickExit = 'calc(12px + 2.25rem + 8px + env(safe-area-inset-bottom, 0px))';
