import UAParser from 'ua-parser-js';

/** What staff and the client read of a visitor's software: short labels, or null when the user agent does not say. */
export interface UserAgentInfo {
  /** "Chrome 131", "Mobile Safari 18". */
  browser: string | null;
  /** "Android 14", "iOS 18.1", "Windows 10". */
  os: string | null;
  /** "mobile", "tablet", "desktop", or ua-parser-js's other types ("smarttv", "console"…). */
  device: string | null;
  /** The device's maker when the user agent names it ("Samsung", "Apple"), else null. */
  vendor: string | null;
  /** The OS name alone ("Android"): the visit's `brand` when no vendor is named. */
  osName: string | null;
}

/** User agents beyond this length are cut before parsing: ua-parser-js's regexes then cost a bounded time. */
export const MAX_USER_AGENT = 512;

/**
 * Parses a user agent with ua-parser-js 1.x (MIT; 2.x is AGPL, decision 010). The parser reports no
 * device type for desktops; a user agent that names a browser or an OS but no device type is a
 * desktop, one that names neither (a script, an empty header) has no device at all.
 */
export function parseUserAgent(userAgent: string | null | undefined): UserAgentInfo {
  const ua = (userAgent ?? '').slice(0, MAX_USER_AGENT);
  const none = { browser: null, os: null, device: null, vendor: null, osName: null };
  if (!ua) return none;
  const { browser, os, device } = new UAParser(ua).getResult();
  const browserLabel = label(browser.name, browser.major ?? browser.version);
  const osLabel = label(os.name, os.version);
  const known = browserLabel !== null || osLabel !== null;
  return {
    browser: browserLabel,
    os: osLabel,
    device: device.type ?? (known ? 'desktop' : null),
    vendor: device.vendor ?? null,
    osName: os.name ?? null,
  };
}

function label(name: string | undefined, version: string | undefined): string | null {
  if (!name) return null;
  return version ? `${name} ${version}` : name;
}
