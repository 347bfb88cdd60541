import { isHostingNetwork } from './hosting-networks.ts';
import type { IpLocation } from './ip-lookup.ts';
import { MAX_USER_AGENT, parseUserAgent } from './user-agent.ts';
import { previewBotName } from './preview-bots.ts';

/** What the capture route reads off a request to /t/{slug}: nothing else is kept. */
export interface CapturedRequest {
  ip: string;
  /** When the request arrived (not when it was written). */
  time: string;
  userAgent: string | null;
  referrer: string | null;
  language: string | null;
}

/** The columns of a visit row the capture fills (the link, request and client come from the link). */
export interface VisitFields {
  ip: string;
  time: string;
  host: null;
  source: string | null;
  domain: null;
  brand: string | null;
  country: string | null;
  isp: string | null;
  vpn: boolean;
  ipDetails: Record<string, string | number | null> | null;
  userAgent: string | null;
  browser: string | null;
  os: string | null;
  device: string | null;
  referrer: string | null;
  language: string | null;
  preview: string | null;
}

const MAX_REFERRER = 1000;
const MAX_LANGUAGE = 200;

/**
 * The spec's ipDetails keys these offline sources cannot fill, kept with null values so the IP
 * Details popup shows every key the spec lists: they are left empty, never invented. `domain` would
 * need reverse DNS or a WHOIS lookup (online); net_speed, idd_cod, area_code, weather station,
 * mcc/mnc, mobile_brand, elevation, address_type and category come only from IP2Location's commercial
 * databases; credits_consumed is that service's billing.
 */
const UNFILLED_IP_DETAILS = [
  'domain',
  'net_speed',
  'idd_cod',
  'area_code',
  'weather_station_code',
  'weather_station_name',
  'mcc',
  'mnc',
  'mobile_brand',
  'elevation',
  'address_type',
  'category',
  'credits_consumed',
] as const;

/**
 * A visit's row from the request and where its IP is. No reverse DNS (`host` stays null): a PTR
 * lookup is an online query the visitor's network may log, and it would hold the capture up.
 * `source` is the preview app, else the referrer's host, else null; `brand` is the device's maker,
 * else the OS name.
 */
export function describeVisit(request: CapturedRequest, location: IpLocation): VisitFields {
  const userAgent = cut(request.userAgent, MAX_USER_AGENT);
  const referrer = cut(request.referrer, MAX_REFERRER);
  const preview = previewBotName(userAgent);
  const ua = parseUserAgent(userAgent);
  const vpn = isHostingNetwork(location.network);
  return {
    ip: location.address,
    time: request.time,
    host: null,
    source: preview ?? referrerHost(referrer),
    domain: null,
    brand: ua.vendor ?? ua.osName,
    country: location.countryName,
    isp: location.network?.org ?? null,
    vpn,
    ipDetails: location.reserved ? null : ipDetails(location, vpn),
    userAgent,
    browser: ua.browser,
    os: ua.os,
    device: ua.device,
    referrer,
    language: cut(request.language, MAX_LANGUAGE),
    preview,
  };
}

/**
 * The spec's IP Details for a public address: what GeoLite2 City and the ASN data say. usage_type
 * takes IP2Location's code 'DCH' (data centre / hosting / transit) when the hosting rule matched
 * (hosting-networks.ts) and stays null otherwise: "not hosting" does not tell ISP from mobile.
 */
function ipDetails(location: IpLocation, vpn: boolean): Record<string, string | number | null> {
  const details: Record<string, string | number | null> = {
    response: 'OK',
    country_code: location.countryCode,
    country_name: location.countryName,
    region_name: location.region,
    city_name: location.city,
    latitude: location.latitude,
    longitude: location.longitude,
    zip_code: location.postcode,
    time_zone: location.timeZone,
    isp: location.network?.org ?? null,
    usage_type: vpn ? 'DCH' : null,
  };
  for (const key of UNFILLED_IP_DETAILS) details[key] = null;
  return details;
}

function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).hostname || null;
  } catch {
    return null;
  }
}

/** Headers are the visitor's to choose: stored cut to a bound, and without NUL (PostgreSQL text refuses it). */
function cut(value: string | null, max: number): string | null {
  if (!value) return null;
  const clean = value.replaceAll('\u0000', '').slice(0, max);
  return clean || null;
}
