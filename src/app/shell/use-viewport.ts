import { useLayoutEffect } from 'react';
import { setViewport } from '../../lib/ui-state.ts';
import { mobileBreakpointPx } from '../../components/theme-tokens.ts';

/** Spec section 9: "mobile" means a viewport under 768px wide. */
const mobileQuery = `(max-width: ${mobileBreakpointPx - 0.02}px)`;

// The layout's first render already knows the viewport: the store is set as this module loads, before any
// component reads it. Set only in the layout effect below, a phone painted one frame of the desktop layout (the
// whole column jumped 240 px: Lighthouse's layout shift of 1.0 on /stay-safe), since the first render is a
// transition and the store's subscription, made after that paint, only then saw the change.
if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') setViewport(window.matchMedia(mobileQuery).matches);

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
