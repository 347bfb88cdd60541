import type { AsnRecord } from './ip-ranges.ts';

/**
 * The `vpn` flag: the visit came from a network that rents out servers (cloud, hosting, VPN and Tor
 * exit operators), not from a home or mobile connection. Nobody browses from a data centre, so such a
 * visit is almost always a VPN, a proxy, Tor or an automated fetch. Decided offline, from the visit's
 * ASN (docs/decisions/010-track-master-links.md, "The vpn flag"):
 *
 * 1. the ASN is in the curated list below (each number checked against the organisation name in the
 *    shipped @ip-location-db/asn data), or
 * 2. the organisation's name contains a word only hosting companies use (hosting, vps, server,
 *    cloud, datacenter, vpn, colocation, dedicated).
 *
 * Limits, said plainly to staff: residential proxies (traffic relayed through home connections),
 * VPNs renting addresses from ordinary ISPs and Tor exits run on ordinary ISPs are missed; a small
 * ISP with "cloud" in its name would be flagged; there is no online reputation lookup. The flag is a
 * hint to weigh, not proof.
 */
export const HOSTING_ASNS: ReadonlyMap<number, string> = new Map([
  // Cloud providers
  [16509, 'Amazon (AWS)'],
  [14618, 'Amazon (AWS)'],
  [396982, 'Google Cloud'],
  [15169, 'Google'],
  [19527, 'Google'],
  [8075, 'Microsoft (Azure)'],
  [31898, 'Oracle Cloud'],
  [45102, 'Alibaba Cloud'],
  [37963, 'Alibaba Cloud'],
  [132203, 'Tencent Cloud'],
  [45090, 'Tencent Cloud'],
  // Hosting and VPS companies
  [14061, 'DigitalOcean'],
  [16276, 'OVH'],
  [24940, 'Hetzner'],
  [213230, 'Hetzner'],
  [212317, 'Hetzner'],
  [63949, 'Akamai (Linode)'],
  [20473, 'Vultr (The Constant Company)'],
  [51167, 'Contabo'],
  [12876, 'Scaleway'],
  [60781, 'Leaseweb'],
  [28753, 'Leaseweb'],
  [16265, 'Leaseweb'],
  [49981, 'WorldStream'],
  [51852, 'Private Layer'],
  [62240, 'Clouvider'],
  [36352, 'HostPapa (ColoCrossing)'],
  [54290, 'HostPapa (Hostwinds)'],
  [396356, 'Latitude.sh'],
  [202425, 'IP Volume'],
  [40676, 'Psychz Networks'],
  [46562, 'Performive'],
  [8100, 'QuadraNet'],
  [63023, 'GTHost'],
  [199524, 'G-Core Labs'],
  [202422, 'G-Core Labs'],
  [53667, 'FranTech (BuyVM)'],
  [200651, 'FlokiNET'],
  [210644, 'AEZA'],
  [57169, 'EDIS'],
  // Networks VPN services rent from, and VPN companies' own
  [9009, 'M247'],
  [60068, 'Datacamp (CDN77)'],
  [212238, 'Datacamp (CDN77)'],
  [39351, 'Mullvad (31173 Services)'],
  [209103, 'Proton'],
  [62371, 'Proton'],
  [147049, 'PacketHub'],
  [136787, 'PacketHub'],
  // Relays: Cloudflare WARP and iCloud Private Relay egress through these
  [13335, 'Cloudflare'],
  [36183, 'Akamai (iCloud Private Relay)'],
  [54113, 'Fastly'],
  [20940, 'Akamai'],
  // Tor exit operators
  [60729, 'Stiftung Erneuerbare Freiheit (Tor exits)'],
  [205100, 'F3 Netze (Tor exits)'],
  [208323, 'Foundation for Applied Privacy (Tor exits)'],
]);

/** Whole words in an organisation's name that only hosting, cloud and VPN companies use. */
const HOSTING_WORDS = /\b(hosting|host|vps|servers?|cloud|data ?cent(er|re)s?|datacenter|vpn|colocation|colo|dedicated)\b/i;

/** Why the network counts as hosting/VPN ("asn" or "name"), or null for an ordinary access network. */
export function hostingReason(record: AsnRecord | null): 'asn' | 'name' | null {
  if (!record) return null;
  if (HOSTING_ASNS.has(record.asn)) return 'asn';
  if (HOSTING_WORDS.test(record.org)) return 'name';
  return null;
}

export function isHostingNetwork(record: AsnRecord | null): boolean {
  return hostingReason(record) !== null;
}
