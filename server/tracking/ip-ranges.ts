import { BlockList, isIP } from 'node:net';

/**
 * IP addresses as numbers, the addresses that have no place on the public internet, and the ASN range
 * table: pure code, so the lookup rules are unit-tested without the 30 MB of data they normally read.
 */

/** An address ready for range search: IPv4 as one 32-bit number, IPv6 as two 64-bit halves. */
export type ParsedIp = { version: 4; address: string; v4: number } | { version: 6; address: string; hi: bigint; lo: bigint };

const MASK64 = (1n << 64n) - 1n;

/**
 * The address in its canonical text, or null when it is not an IP. An IPv4-mapped IPv6 address
 * (`::ffff:203.0.113.9`, what a dual-stack socket reports for an IPv4 client) is read as the IPv4
 * address it carries, so it finds the IPv4 data.
 */
export function parseIp(raw: string): ParsedIp | null {
  const text = raw.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  const candidate = mapped ? mapped[1] : text;
  const version = isIP(candidate);
  if (version === 4) {
    const v4 = candidate.split('.').reduce((n, part) => n * 256 + Number(part), 0);
    return { version: 4, address: candidate, v4 };
  }
  if (version === 6) {
    const value = ipv6ToBigInt(candidate);
    return { version: 6, address: candidate.toLowerCase(), hi: value >> 64n, lo: value & MASK64 };
  }
  return null;
}

/** The 128-bit value of an IPv6 address (isIP already said it is one), including a trailing dotted quad. */
export function ipv6ToBigInt(address: string): bigint {
  let text = address.split('%')[0];
  const dotted = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted) {
    const n = dotted[1].split('.').map(Number);
    text = text.slice(0, -dotted[1].length) + `${((n[0] << 8) | n[1]).toString(16)}:${((n[2] << 8) | n[3]).toString(16)}`;
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

/**
 * Addresses no location database can place: private networks, loopback, link-local, shared (CGNAT),
 * documentation, multicast and other reserved blocks (IANA special-purpose registries). A visit from
 * one of them (a test from the office network, a proxy that hides the client) is stored without a
 * location, never looked up.
 */
const reserved = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  reserved.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  reserved.addSubnet(net, prefix, 'ipv6');
}

/** Whether the address is private, loopback or otherwise reserved; for IPv6 anything outside global unicast (2000::/3) is. */
export function isReservedIp(ip: ParsedIp): boolean {
  if (ip.version === 4) return reserved.check(ip.address, 'ipv4');
  if (ip.hi >> 61n !== 1n) return true;
  return reserved.check(ip.address, 'ipv6');
}

// ---- the ASN range table ----

/** An autonomous system: its number and the organisation that announces it. */
export interface AsnRecord {
  asn: number;
  org: string;
}

/**
 * The ASN ranges of one IP version in sorted typed arrays: about 412,000 IPv4 rows in 16 bytes each
 * and 103,000 IPv6 rows in 36, with the organisation names stored once each. A lookup is a binary
 * search, O(log n), with no object per row for the garbage collector to walk.
 */
export interface AsnTable {
  version: 4 | 6;
  size: number;
  /** IPv4: start and end of each range. */
  start4: Uint32Array;
  end4: Uint32Array;
  /** IPv6: high and low 64 bits of each range's start and end. */
  startHi: BigUint64Array;
  startLo: BigUint64Array;
  endHi: BigUint64Array;
  endLo: BigUint64Array;
  asn: Uint32Array;
  orgIndex: Uint32Array;
  orgs: string[];
}

/**
 * Builds the table from @ip-location-db/asn's "-num" CSV (`start,end,asn,org`, inclusive ranges as
 * decimal numbers, the organisation quoted when it holds a comma). Rows must come sorted by start, as
 * the package ships them; an unsorted file is refused rather than searched wrongly.
 */
export function parseAsnCsv(text: string, version: 4 | 6): AsnTable {
  const capacity = countLines(text);
  const table = emptyTable(version, capacity);
  const orgIds = new Map<string, number>();
  let n = 0;
  let pos = 0;
  while (pos < text.length) {
    let eol = text.indexOf('\n', pos);
    if (eol === -1) eol = text.length;
    const line = text.charCodeAt(eol - 1) === 13 ? text.slice(pos, eol - 1) : text.slice(pos, eol);
    pos = eol + 1;
    const c1 = line.indexOf(',');
    const c2 = line.indexOf(',', c1 + 1);
    const c3 = line.indexOf(',', c2 + 1);
    if (c1 <= 0 || c2 <= 0 || c3 <= 0) continue;
    const org = unquote(line.slice(c3 + 1));
    let orgId = orgIds.get(org);
    if (orgId === undefined) {
      // A copy, not a slice: V8 would keep a sliced string's parent, the whole 20 MB file, alive.
      orgId = table.orgs.push(Buffer.from(org, 'utf8').toString('utf8')) - 1;
      orgIds.set(org, orgId);
    }
    if (version === 4) {
      table.start4[n] = Number(line.slice(0, c1));
      table.end4[n] = Number(line.slice(c1 + 1, c2));
      if (n > 0 && table.start4[n] < table.start4[n - 1]) throw new Error(`ASN IPv4 ranges are not sorted at row ${n + 1}`);
    } else {
      const start = BigInt(line.slice(0, c1));
      const end = BigInt(line.slice(c1 + 1, c2));
      table.startHi[n] = start >> 64n;
      table.startLo[n] = start & MASK64;
      table.endHi[n] = end >> 64n;
      table.endLo[n] = end & MASK64;
      if (n > 0 && compare128(table.startHi[n], table.startLo[n], table.startHi[n - 1], table.startLo[n - 1]) < 0) {
        throw new Error(`ASN IPv6 ranges are not sorted at row ${n + 1}`);
      }
    }
    table.asn[n] = Number(line.slice(c2 + 1, c3));
    table.orgIndex[n] = orgId;
    n++;
  }
  table.size = n;
  return table;
}

/** The range holding the address, or null when none does (unannounced space, or a version mismatch). */
export function lookupAsn(table: AsnTable, ip: ParsedIp): AsnRecord | null {
  if (ip.version !== table.version || table.size === 0) return null;
  // The last range starting at or before the address; it holds the address if it ends at or after it.
  let lo = 0;
  let hi = table.size - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const startsBefore = ip.version === 4 ? table.start4[mid] <= ip.v4 : compare128(table.startHi[mid], table.startLo[mid], ip.hi, ip.lo) <= 0;
    if (startsBefore) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  if (found === -1) return null;
  const endsAfter = ip.version === 4 ? table.end4[found] >= ip.v4 : compare128(table.endHi[found], table.endLo[found], ip.hi, ip.lo) >= 0;
  if (!endsAfter) return null;
  return { asn: table.asn[found], org: table.orgs[table.orgIndex[found]] };
}

function compare128(aHi: bigint, aLo: bigint, bHi: bigint, bLo: bigint): number {
  if (aHi !== bHi) return aHi < bHi ? -1 : 1;
  if (aLo !== bLo) return aLo < bLo ? -1 : 1;
  return 0;
}

function emptyTable(version: 4 | 6, capacity: number): AsnTable {
  const four = version === 4 ? capacity : 0;
  const six = version === 6 ? capacity : 0;
  return {
    version,
    size: 0,
    start4: new Uint32Array(four),
    end4: new Uint32Array(four),
    startHi: new BigUint64Array(six),
    startLo: new BigUint64Array(six),
    endHi: new BigUint64Array(six),
    endLo: new BigUint64Array(six),
    asn: new Uint32Array(capacity),
    orgIndex: new Uint32Array(capacity),
    orgs: [],
  };
}

function countLines(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** A CSV field: `"Cloudflare, Inc."` → `Cloudflare, Inc.`, doubled quotes inside read as one. */
function unquote(field: string): string {
  if (field.length >= 2 && field.startsWith('"') && field.endsWith('"')) return field.slice(1, -1).replaceAll('""', '"');
  return field;
}
