import { useLayoutEffect } from 'react';
import { setViewport } from '../../lib/ui-state.ts';
import { mobileBreakpointPx } from '../../components/theme-tokens.ts';

/** Spec section 9: "mobile" means a viewport under 768px wide. */
const mobileQuery = `(max-width: ${mobileBreakpointPx - 0.02}px)`;

/**
 * Keeps ui-state's isMobile in step with the viewport. A layout effect, so a phone never paints
 * one frame of the desktop sidebar before the store flips to mobile.
 */
export function useViewport(): void {
  useLayoutEffect(() => {
    if (typeof window.matchMedia !== 'function') {
      // matchMedia is missing in some test DOMs; a resize listener gives the same answer there.
      const onResize = () => setViewport(window.innerWidth < mobileBreakpointPx);
      onResize();
      window.addEventListener('resize', onResize);
      return () => window.removeEventListener('resize', onResize);
    }
    const media = window.matchMedia(mobileQuery);
    const onChange = () => setViewport(media.matches);
    onChange();
    media.addEventListener('change', onChange);
    return () => media.removeEventListener('change', onChange);
  }, []);
}
