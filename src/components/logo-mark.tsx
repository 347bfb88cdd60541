/**
 * The logo drawn inline (the paths of public/logo.svg), decorative: no request before it shows, and no image for
 * the largest-paint measure to wait for on the sign-in screen (public/first-paint-login.html draws the same).
 */
export function LogoMark({ size }: { size: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <path d="M32 4 8 13v17c0 15.2 10.2 26.6 24 30 13.8-3.4 24-14.8 24-30V13L32 4Z" fill="#5D87FF" />
      <path d="M32 9.3 13 16.4V30c0 12.4 8.1 21.9 19 25V9.3Z" fill="#759AFF" />
      <path d="m22 32.5 7 7 13.5-14" fill="none" stroke="#FFFFFF" strokeWidth="5" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
