import { beforeAll, describe, expect, it } from 'vitest';
import { type IpLookup, loadIpLookup } from './ip-lookup.ts';
import { describeVisit } from './visit-details.ts';

/**
 * Against the data the package ships (@ip-location-db 2.3.2026061719): each expected answer was read
 * from that database when this test was written, so a data update that moves one shows here.
 */
describe('the shipped IP data', () => {
  let lookup: IpLookup;
  beforeAll(async () => {
    lookup = await loadIpLookup();
  }, 60_000);

  it.each([
    ['102.89.34.17', 'NG', 'Nigeria', 'Lagos', 'Africa/Lagos', 29465, 'MTN NIGERIA Communication limited'],
    ['81.2.69.142', 'GB', 'United Kingdom', 'Bracknell', 'Europe/London', 20712, 'Andrews & Arnold Ltd'],
    ['49.36.0.1', 'IN', 'India', 'Mumbai', 'Asia/Kolkata', 55836, 'Reliance Jio Infocomm Limited'],
    ['200.160.2.3', 'BR', 'Brazil', 'Sao Paulo', 'America/Sao_Paulo', 22548, 'Nucleo de Inf. e Coord. do Ponto BR - NIC.BR'],
    ['213.180.204.3', 'RU', 'Russia', null, 'Europe/Moscow', 13238, 'YANDEX LLC'],
    ['2a00:1450:4001:80b::200e', 'DE', 'Germany', 'Frankfurt am Main', 'Europe/Berlin', 15169, 'Google LLC'],
  ])('%s is in %s (%s, %s) on AS%i', (ip, code, country, city, timeZone, asn, org) => {
    const found = lookup.locate(ip as string);
    expect(found).toMatchObject({ reserved: false, countryCode: code, countryName: country, city, timeZone, network: { asn, org } });
    expect(found.latitude).toEqual(expect.any(Number));
    expect(found.longitude).toEqual(expect.any(Number));
  });

  it.each(['127.0.0.1', '10.0.0.8', '192.168.1.20', '::1', 'fe80::1', 'not-an-ip'])('%s has no location and raises nothing', (ip) => {
    expect(lookup.locate(ip)).toMatchObject({ reserved: true, countryCode: null, latitude: null, longitude: null, network: null });
  });

  it('fills the spec ipDetails keys these sources can fill, and leaves the others null', () => {
    const visit = describeVisit({ ip: '102.89.34.17', time: '2026-01-01T00:00:00.000Z', userAgent: null, referrer: null, language: null }, lookup.locate('102.89.34.17'));
    expect(visit.ipDetails).toEqual({
      response: 'OK',
      country_code: 'NG',
      country_name: 'Nigeria',
      region_name: 'Lagos',
      city_name: 'Lagos',
      latitude: 6.4474,
      longitude: 3.3903,
      zip_code: null,
      time_zone: 'Africa/Lagos',
      isp: 'MTN NIGERIA Communication limited',
      usage_type: null,
      domain: null,
      net_speed: null,
      idd_cod: null,
      area_code: null,
      weather_station_code: null,
      weather_station_name: null,
      mcc: null,
      mnc: null,
      mobile_brand: null,
      elevation: null,
      address_type: null,
      category: null,
      credits_consumed: null,
    });
    expect(visit).toMatchObject({ country: 'Nigeria', isp: 'MTN NIGERIA Communication limited', vpn: false, host: null });
  });

  it.each([
    ['139.59.0.1', 14061, 'DigitalOcean, LLC'],
    ['185.220.101.34', 60729, 'Stiftung Erneuerbare Freiheit'],
    ['45.83.220.1', 39351, '31173 Services AB'],
    ['8.8.8.8', 15169, 'Google LLC'],
  ])('a hosting, VPN or Tor address (%s, AS%i %s) is flagged vpn, usage_type DCH', (ip, asn, org) => {
    const location = lookup.locate(ip as string);
    expect(location.network).toEqual({ asn, org });
    const visit = describeVisit({ ip: ip as string, time: '2026-01-01T00:00:00.000Z', userAgent: null, referrer: null, language: null }, location);
    expect(visit.vpn).toBe(true);
    expect(visit.ipDetails?.usage_type).toBe('DCH');
  });

  it('a private address is stored without ipDetails', () => {
    const visit = describeVisit({ ip: '192.168.1.20', time: '2026-01-01T00:00:00.000Z', userAgent: 'WhatsApp/2.23.20.0 A', referrer: null, language: 'en' }, lookup.locate('192.168.1.20'));
    expect(visit).toMatchObject({ ip: '192.168.1.20', ipDetails: null, country: null, isp: null, vpn: false, preview: 'WhatsApp', source: 'WhatsApp' });
  });
});

describe('describeVisit, without the data files', () => {
  const nowhere = { address: '10.0.0.1', reserved: true, countryCode: null, countryName: null, region: null, city: null, postcode: null, latitude: null, longitude: null, timeZone: null, network: null };
  const at = '2026-01-01T00:00:00.000Z';

  it('takes the source from the referrer host, the brand from the vendor or else the OS', () => {
    const iphone = describeVisit(
      { ip: '10.0.0.1', time: at, userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1', referrer: 'https://l.facebook.com/l.php?u=x', language: 'fr-FR' },
      nowhere,
    );
    expect(iphone).toMatchObject({ source: 'l.facebook.com', brand: 'Apple', os: 'iOS 18.1', device: 'mobile', language: 'fr-FR', preview: null });
    const windows = describeVisit({ ip: '10.0.0.1', time: at, userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', referrer: 'not a url', language: null }, nowhere);
    expect(windows).toMatchObject({ source: null, brand: 'Windows', device: 'desktop', referrer: 'not a url' });
  });

  it('stores the visitor\'s headers bounded and without NUL', () => {
    const visit = describeVisit({ ip: '10.0.0.1', time: at, userAgent: `a\u0000b${'x'.repeat(2000)}`, referrer: 'r'.repeat(5000), language: '\u0000' }, nowhere);
    expect(visit.userAgent).toHaveLength(512);
    expect(visit.userAgent?.startsWith('ab')).toBe(true);
    expect(visit.referrer).toHaveLength(1000);
    expect(visit.language).toBeNull();
  });
});
