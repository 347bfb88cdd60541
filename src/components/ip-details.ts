import { capitalise } from '../../domain/format.ts';
import type { Visit } from '../../domain/schemas.ts';

export interface IpDetailItem {
  label: string;
  value: string;
}

export interface IpDetailGroup {
  title: 'Location' | 'Network' | 'Device' | 'Other';
  items: IpDetailItem[];
}

type Details = NonNullable<Visit['ipDetails']>;

/** IP2Location's usage_type codes (several may come joined by "/", e.g. "ISP/MOB"). */
const usageTypes: Record<string, string> = {
  COM: 'Company',
  ORG: 'Organisation',
  GOV: 'Government',
  MIL: 'Military',
  EDU: 'School or university',
  LIB: 'Library',
  CDN: 'Content delivery network',
  ISP: 'Home or office internet',
  MOB: 'Mobile network',
  DCH: 'Data centre or hosting (often a VPN)',
  SES: 'Search engine robot',
  RSV: 'Reserved address',
};

const netSpeeds: Record<string, string> = { DIAL: 'Dial-up', DSL: 'Broadband', COMP: 'Company line' };
const addressTypes: Record<string, string> = { A: 'Anycast', U: 'Unicast', M: 'Multicast', B: 'Broadcast' };

/**
 * Keys the popup never lists: the lookup service's own bookkeeping (whether its answer was OK, what it
 * billed), and keys shown through another one (country_code beside the country, the coordinates together).
 */
const notShown = new Set(['response', 'credits_consumed', 'country_code', 'latitude', 'longitude', 'weather_station_code', 'mcc', 'mnc']);

/** The keys the groups below already cover, by name; any other key of a newer lookup goes to "Other". */
const covered = new Set([
  'city_name',
  'region_name',
  'country_name',
  'zip_code',
  'time_zone',
  'area_code',
  'idd_cod',
  'elevation',
  'weather_station_name',
  'isp',
  'domain',
  'usage_type',
  'net_speed',
  'mobile_brand',
  'address_type',
  'category',
]);

/** A value worth showing: lookups write "-" (and we write null or "") for what they do not know. */
function text(value: unknown): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' || trimmed === '-' ? null : trimmed;
}

function item(label: string, value: string | null): IpDetailItem[] {
  return value === null ? [] : [{ label, value }];
}

function coded(codes: Record<string, string>, value: unknown): string | null {
  const raw = text(value);
  if (raw === null) return null;
  return raw
    .split('/')
    .map((code) => codes[code.trim().toUpperCase()] ?? code.trim())
    .join(', ');
}

function country(details: Details, visit: Visit): string | null {
  const name = text(details.country_name) ?? text(visit.country);
  const code = text(details.country_code);
  if (name && code && code !== name) return `${name} (${code})`;
  return name ?? code;
}

function coordinates(details: Details): string | null {
  const lat = text(details.latitude);
  const lng = text(details.longitude);
  return lat !== null && lng !== null ? `${lat}, ${lng}` : null;
}

function mobileNetwork(details: Details): string | null {
  const brand = text(details.mobile_brand);
  const codes = [text(details.mcc) && `MCC ${text(details.mcc)}`, text(details.mnc) && `MNC ${text(details.mnc)}`].filter(Boolean).join(', ');
  if (brand && codes) return `${brand} (${codes})`;
  return brand ?? (codes || null);
}

function callingCode(value: unknown): string | null {
  const code = text(value);
  return code === null ? null : code.startsWith('+') ? code : `+${code}`;
}

/** "Africa/Lagos" as it is; IP2Location's offset "+01:00" as "UTC+01:00". */
function timeZone(value: unknown): string | null {
  const zone = text(value);
  return zone !== null && /^[+-]\d/.test(zone) ? `UTC${zone}` : zone;
}

function weatherStation(details: Details): string | null {
  const name = text(details.weather_station_name);
  const code = text(details.weather_station_code);
  return name && code ? `${name} (${code})` : (name ?? code);
}

/** "net_speed" → "Net speed": a readable label for a key this app does not know yet. */
function labelOf(key: string): string {
  return capitalise(key.replaceAll('_', ' ').trim());
}

/**
 * A visit's IP Details in words: location, network and device, each listing only what is known, with
 * labels a client understands instead of the lookup's field names (idd_cod, mcc, usage_type MOB…).
 * A group with nothing known is left out.
 */
export function ipDetailGroups(visit: Visit): IpDetailGroup[] {
  const details: Details = visit.ipDetails ?? {};
  const location: IpDetailItem[] = [
    ...item('City', text(details.city_name)),
    ...item('Region', text(details.region_name)),
    ...item('Country', country(details, visit)),
    ...item('Postcode', text(details.zip_code)),
    ...item('Coordinates', coordinates(details)),
    ...item('Time zone', timeZone(details.time_zone)),
    ...item('Phone area code', text(details.area_code)),
    ...item('Country calling code', callingCode(details.idd_cod)),
    ...item('Elevation', text(details.elevation) === null ? null : `${text(details.elevation)} m`),
    ...item('Nearest weather station', weatherStation(details)),
  ];
  const network: IpDetailItem[] = [
    ...item('IP address', text(visit.ip)),
    ...item('Internet provider', text(details.isp) ?? text(visit.isp)),
    ...item('Domain', text(details.domain) ?? text(visit.domain)),
    ...item('Host name', text(visit.host)),
    ...item('Connection type', coded(usageTypes, details.usage_type)),
    ...item('VPN or hosting', visit.vpn ? 'Yes: the address belongs to a hosting network, as VPNs use' : null),
    ...item('Connection speed', coded(netSpeeds, details.net_speed)),
    ...item('Mobile network', mobileNetwork(details)),
    ...item('Address type', coded(addressTypes, details.address_type)),
    ...item('Category', text(details.category)),
  ];
  const device: IpDetailItem[] = [
    ...item('Browser', text(visit.browser)),
    ...item('Operating system', text(visit.os)),
    ...item('Device type', text(visit.device) === null ? null : capitalise(text(visit.device) ?? '')),
    ...item('Maker', text(visit.brand)),
    ...item('Language', text(visit.language)),
    ...item('Came from', text(visit.source) ?? text(visit.referrer)),
    ...item('Browser signature (user agent)', text(visit.userAgent)),
  ];
  const other = Object.entries(details)
    .filter(([key]) => !notShown.has(key) && !covered.has(key))
    .flatMap(([key, value]) => item(labelOf(key), text(value)));
  const groups: IpDetailGroup[] = [
    { title: 'Location', items: location },
    { title: 'Network', items: network },
    { title: 'Device', items: device },
    { title: 'Other', items: other },
  ];
  return groups.filter((group) => group.items.length > 0);
}
