import { describe, expect, it } from 'vitest';
import { hostingReason } from './hosting-networks.ts';
import { previewBotName } from './preview-bots.ts';
import { parseUserAgent } from './user-agent.ts';

describe('parseUserAgent', () => {
  it('gives browser, OS, device type and vendor', () => {
    expect(parseUserAgent('Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.104 Mobile Safari/537.36')).toEqual({
      browser: 'Chrome 131',
      os: 'Android 14',
      device: 'mobile',
      vendor: 'Samsung',
      osName: 'Android',
    });
    expect(parseUserAgent('Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1')).toMatchObject({
      os: 'iOS 17.5',
      device: 'tablet',
      vendor: 'Apple',
    });
  });

  it('calls a browser with no device type a desktop, and a user agent naming nothing no device at all', () => {
    expect(parseUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36')).toEqual({
      browser: 'Chrome 131',
      os: 'Windows 10',
      device: 'desktop',
      vendor: null,
      osName: 'Windows',
    });
    expect(parseUserAgent('curl/8.5.0').device).toBeNull();
    expect(parseUserAgent(null)).toEqual({ browser: null, os: null, device: null, vendor: null, osName: null });
  });
});

describe('previewBotName', () => {
  it.each([
    ['WhatsApp/2.23.20.0 A', 'WhatsApp'],
    ['WhatsApp/2.2403.5 i', 'WhatsApp'],
    ['TelegramBot (like TwitterBot)', 'Telegram'],
    ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'Facebook'],
    ['Mozilla/5.0 (compatible; Facebot/1.0)', 'Facebook'],
    // What iMessage sends: Facebook's and X's tokens together.
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_11_1) AppleWebKit/601.2.4 (KHTML, like Gecko) Version/9.0.1 Safari/601.2.4 facebookexternalhit/1.1 Facebot Twitterbot/1.0', 'iMessage'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', 'Apple'],
    ['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)', 'Slack'],
    ['Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)', 'Discord'],
    ['Mozilla/5.0 (Windows NT 6.1; WOW64) SkypeUriPreview Preview/0.5', 'Skype'],
    ['Twitterbot/1.0', 'X (Twitter)'],
    ['LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)', 'LinkedIn'],
    ['facebookexternalhit/1.1;line-poker/1.0', 'LINE'],
    ['Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/W.X.Y.Z Mobile Safari/537.36 (compatible; Google-PageRenderer; +https://www.google.com/bot.html)', 'Google'],
  ])('%s is %s', (ua, name) => expect(previewBotName(ua)).toBe(name));

  it.each([
    'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.104 Mobile Safari/537.36',
    // In-app browsers are people opening the link.
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBAV/455.0.0.39.109;FBBV/571384366]',
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari Line/14.3.0',
    '',
  ])('a person: %s', (ua) => expect(previewBotName(ua)).toBeNull());
});

describe('hostingReason (the vpn flag)', () => {
  it('flags the curated hosting, VPN and Tor ASNs', () => {
    expect(hostingReason({ asn: 16509, org: 'Amazon.com, Inc.' })).toBe('asn');
    expect(hostingReason({ asn: 39351, org: '31173 Services AB' })).toBe('asn');
    expect(hostingReason({ asn: 60729, org: 'Stiftung Erneuerbare Freiheit' })).toBe('asn');
  });

  it('flags organisation names only hosting companies use, whole words only', () => {
    expect(hostingReason({ asn: 1, org: 'Example Hosting Ltd' })).toBe('name');
    expect(hostingReason({ asn: 1, org: 'Fast VPS s.r.o.' })).toBe('name');
    expect(hostingReason({ asn: 1, org: 'Acme Data Center GmbH' })).toBe('name');
    expect(hostingReason({ asn: 1, org: 'HostPapaNet' })).toBeNull();
  });

  it('leaves access networks and unknown addresses alone', () => {
    expect(hostingReason({ asn: 29465, org: 'MTN NIGERIA Communication limited' })).toBeNull();
    expect(hostingReason(null)).toBeNull();
  });
});
