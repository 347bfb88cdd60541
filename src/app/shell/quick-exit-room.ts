/**
 * The height "Leave quickly" takes at the bottom of a phone screen, with its margins: 12 px under it, its 32 px
 * (size sm), 12 px above it, and the device's safe area. A drawer or panel that reaches the bottom keeps this much
 * room free of its controls (mobile-drawer.tsx); the page itself ends with a spacer of the same height.
 */
export const QUICK_EXIT_ROOM = 'calc(56px + env(safe-area-inset-bottom, 0px))';
