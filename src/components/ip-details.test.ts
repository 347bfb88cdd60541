import { describe, expect, it } from 'vitest';
import { Visit } from '../../domain/schemas.ts';
import { ipDetailGroups } from './ip-details.ts';

const visit = (over: Partial<Visit> = {}): Visit =>
  Visit.parse({
    id: 'v1',
    userId: 'u1',
    productRequestId: 'r1',
    ip: '102.89.34.10',
    host: null,
    source: null,
    domain: null,
    brand: null,
    time: '2026-01-02T10:00:00.000Z',
    country: 'Nigeria',
    isp: 'MTN Nigeria',
    vpn: false,
    new: true,
    archive: false,
    ipDetails: null,
    ...over,
  });

/** Every key the spec lists for ipDetails, as IP2Location fills them for a mobile address. */
const fullLookup = {
  response: 'OK',
  country_code: 'NG',
  country_name: 'Nigeria',
  region_name: 'Lagos',
  city_name: 'Lagos',
  latitude: 6.45407,
  longitude: 3.39467,
  zip_code: '-',
  time_zone: '+01:00',
  isp: 'MTN Nigeria Communication Limited',
  domain: 'mtnnigeria.net',
  net_speed: 'DSL',
  idd_cod: '234',
  area_code: '01',
  weather_station_code: 'NIXX0001',
  weather_station_name: 'Lagos',
  mcc: '621',
  mnc: '30',
  mobile_brand: 'MTN',
  elevation: 41,
  usage_type: 'MOB',
  address_type: 'U',
  category: 'IAB19-18',
  credits_consumed: 1,
};

const asTable = (v: Visit) => Object.fromEntries(ipDetailGroups(v).map((g) => [g.title, Object.fromEntries(g.items.map((i) => [i.label, i.value]))]));

describe('ipDetailGroups', () => {
  it('turns every field of a full lookup into words, grouped as location, network and device', () => {
    const groups = asTable(
      visit({ ipDetails: fullLookup, browser: 'Chrome 131', os: 'Android 14', device: 'mobile', brand: 'Samsung', language: 'en-NG', source: 'WhatsApp' }),
    );
    expect(groups).toEqual({
      Location: {
        City: 'Lagos',
        Region: 'Lagos',
        Country: 'Nigeria (NG)',
        Coordinates: '6.45407, 3.39467',
        'Time zone': 'UTC+01:00',
        'Phone area code': '01',
        'Country calling code': '+234',
        Elevation: '41 m',
        'Nearest weather station': 'Lagos (NIXX0001)',
      },
      Network: {
        'IP address': '102.89.34.10',
        'Internet provider': 'MTN Nigeria Communication Limited',
        Domain: 'mtnnigeria.net',
        'Connection type': 'Mobile network',
        'Connection speed': 'Broadband',
        'Mobile network': 'MTN (MCC 621, MNC 30)',
        'Address type': 'Unicast',
        Category: 'IAB19-18',
      },
      Device: {
        Browser: 'Chrome 131',
        'Operating system': 'Android 14',
        'Device type': 'Mobile',
        Maker: 'Samsung',
        Language: 'en-NG',
        'Came from': 'WhatsApp',
      },
    });
  });

  it('never shows a raw field name, nor the lookup service’s bookkeeping', () => {
    const labels = ipDetailGroups(visit({ ipDetails: fullLookup })).flatMap((g) => g.items.map((i) => i.label));
    for (const raw of Object.keys(fullLookup)) expect(labels).not.toContain(raw);
    expect(labels.join(' ')).not.toMatch(/_|credits|response/i);
  });

  it('lists only what is known: the capture’s empty keys, "-" and empty texts are left out, and so is an empty group', () => {
    const sparse = {
      ...Object.fromEntries(Object.keys(fullLookup).map((key) => [key, null])),
      response: 'OK',
      country_name: 'Germany',
      city_name: '-',
      time_zone: 'Europe/Berlin',
      isp: '',
      usage_type: 'DCH',
    };
    const groups = ipDetailGroups(visit({ ipDetails: sparse, country: 'Germany', isp: 'Hetzner Online GmbH', vpn: true }));
    expect(groups.map((g) => g.title)).toEqual(['Location', 'Network']);
    expect(asTable(visit({ ipDetails: sparse, country: 'Germany', isp: 'Hetzner Online GmbH', vpn: true }))).toEqual({
      Location: { Country: 'Germany', 'Time zone': 'Europe/Berlin' },
      Network: {
        'IP address': '102.89.34.10',
        'Internet provider': 'Hetzner Online GmbH',
        'Connection type': 'Data centre or hosting (often a VPN)',
        'VPN or hosting': 'Yes: the address belongs to a hosting network, as VPNs use',
      },
    });
  });

  it('reads joined usage types and keeps a key it does not know under Other, labelled in words', () => {
    const groups = asTable(visit({ ipDetails: { usage_type: 'ISP/MOB', proxy_type: 'VPN' } }));
    expect(groups.Network['Connection type']).toBe('Home or office internet, Mobile network');
    expect(groups.Other).toEqual({ 'Proxy type': 'VPN' });
  });
});
