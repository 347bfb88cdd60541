/**
 * Link-preview fetchers: when a link is pasted in a chat, the messaging app (or its server) fetches it
 * to draw a preview card. That request is not the scammer opening the link, so it is recorded with
 * `preview` set to the app's name and counted in the link's `previews`, not its `visits`. Its IP is
 * the app's server (or, for WhatsApp, Signal and iMessage, the sender's or receiver's own device), so
 * staff may still find it useful.
 *
 * Matched on the tokens each fetcher sends (the user agent is a claim anyone can copy, so this only
 * sorts honest traffic). Order matters: iMessage sends "facebookexternalhit/1.1 Facebot Twitterbot/1.0"
 * and LINE "facebookexternalhit/1.1;line-poker/1.0", so they are tested before Facebook. In-app
 * browsers (Facebook's FBAN/FBAV, Instagram, LINE's and Snapchat's) are people and are not matched.
 */
const PREVIEW_BOTS: readonly (readonly [name: string, pattern: RegExp])[] = [
  ['iMessage', /facebookexternalhit\/[\d.]+ Facebot Twitterbot/i],
  ['LINE', /line-poker/i],
  ['WhatsApp', /\bWhatsApp\//i],
  ['Telegram', /TelegramBot/i],
  ['Facebook', /facebookexternalhit|Facebot|meta-externalagent|facebookcatalog/i],
  ['Messenger', /Messenger.*(Preview|Bot)|FBMessengerBot/i],
  ['Apple', /Applebot/i],
  ['Slack', /Slackbot|Slack-ImgProxy/i],
  ['Discord', /Discordbot/i],
  ['Skype', /SkypeUriPreview/i],
  ['Microsoft Teams', /MicrosoftPreview|Teams.*Preview/i],
  ['X (Twitter)', /Twitterbot/i],
  ['LinkedIn', /LinkedInBot/i],
  ['Viber', /\bViber\b.*(Preview|Bot)|ViberBot/i],
  ['Snapchat', /Snap URL Preview|snapchat_proxy/i],
  ['Pinterest', /Pinterestbot|Pinterest\/0\./i],
  ['Reddit', /redditbot/i],
  ['Gmail', /GoogleImageProxy/i],
  ['Google', /Google-PageRenderer|Googlebot|Google-InspectionTool|GoogleOther|Storebot-Google|APIs-Google/i],
  ['Bing', /bingbot|BingPreview/i],
  ['Yandex', /YandexBot/i],
  ['Embedly', /Embedly/i],
  ['Iframely', /Iframely/i],
  ['Mastodon', /Mastodon\//i],
  ['VK', /vkShare/i],
];

/** The name of the app whose link-preview fetcher sent this user agent, or null for a person's browser. */
export function previewBotName(userAgent: string | null | undefined): string | null {
  if (!userAgent) return null;
  for (const [name, pattern] of PREVIEW_BOTS) if (pattern.test(userAgent)) return name;
  return null;
}
