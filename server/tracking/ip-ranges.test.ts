import { describe, expect, it } from 'vitest';
import { defined } from '../test-helper.ts';
import { ipv6ToBigInt, isReservedIp, lookupAsn, parseAsnCsv, parseIp } from './ip-ranges.ts';

const ip = (text: string) => defined(parseIp(text), `an IP in "${text}"`);

describe('parseIp', () => {
  it('reads IPv4, IPv6 and IPv4-mapped IPv6 (what a dual-stack socket reports) as the IPv4 it carries', () => {
    expect(ip('1.2.3.4')).toEqual({ version: 4, address: '1.2.3.4', v4: 0x01020304 });
    expect(ip('::ffff:102.89.34.17')).toMatchObject({ version: 4, address: '102.89.34.17' });
    expect(ip('2001:DB8::1')).toMatchObject({ version: 6, address: '2001:db8::1', hi: 0x20010db800000000n, lo: 1n });
    expect(parseIp('not an ip')).toBeNull();
    expect(parseIp('1.2.3.256')).toBeNull();
  });

  it('expands :: and a trailing dotted quad in IPv6', () => {
    expect(ipv6ToBigInt('::1')).toBe(1n);
    expect(ipv6ToBigInt('2001:db8::')).toBe(0x20010db8n << 96n);
    expect(ipv6ToBigInt('64:ff9b::1.2.3.4')).toBe((0x64ff9bn << 96n) | 0x01020304n);
    expect(ipv6ToBigInt('1:2:3:4:5:6:7:8')).toBe(0x00010002000300040005000600070008n);
  });
});

describe('isReservedIp', () => {
  it.each(['127.0.0.1', '10.1.2.3', '172.16.5.4', '192.168.1.10', '100.64.0.1', '169.254.1.1', '0.0.0.0', '224.0.0.1', '203.0.113.7', '::1', '::', 'fe80::1', 'fd00::5', 'ff02::1', '2001:db8::7'])(
    '%s has no place on the public internet',
    (address) => expect(isReservedIp(ip(address))).toBe(true),
  );
  it.each(['8.8.8.8', '102.89.34.17', '172.32.0.1', '2a00:1450:4001:80b::200e'])('%s is public', (address) => expect(isReservedIp(ip(address))).toBe(false));
});

describe('the ASN range table', () => {
  const v4 = parseAsnCsv(['16777216,16777471,13335,"Cloudflare, Inc."', '16778240,16779263,38803,Gtelecom Pty Ltd', '16779264,16781311,2519,"""QUOTED"" Org"', ''].join('\n'), 4);
  const v6 = parseAsnCsv(
    ['42540488161975842760550356425300246528,42540488241204005274814694018844196863,6939,Hurricane Electric LLC', '42540528726795050063891204319802818560,42540528806023212578155541913346768895,2500,WIDE Project'].join('\r\n'),
    6,
  );

  it('finds the range holding an address, at its bounds and inside', () => {
    expect(lookupAsn(v4, ip('1.0.0.0'))).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(lookupAsn(v4, ip('1.0.0.255'))).toEqual({ asn: 13335, org: 'Cloudflare, Inc.' });
    expect(lookupAsn(v4, ip('1.0.4.7'))).toEqual({ asn: 38803, org: 'Gtelecom Pty Ltd' });
    expect(lookupAsn(v4, ip('1.0.8.0'))).toEqual({ asn: 2519, org: '"QUOTED" Org' });
  });

  it('answers null in a gap, before the first range, after the last, and for the other IP version', () => {
    expect(lookupAsn(v4, ip('1.0.1.0'))).toBeNull();
    expect(lookupAsn(v4, ip('0.255.255.255'))).toBeNull();
    expect(lookupAsn(v4, ip('9.9.9.9'))).toBeNull();
    expect(lookupAsn(v4, ip('2001:470::1'))).toBeNull();
  });

  it('searches IPv6 on all 128 bits', () => {
    expect(v6.size).toBe(2);
    expect(lookupAsn(v6, ip('2001::1'))).toEqual({ asn: 6939, org: 'Hurricane Electric LLC' });
    expect(lookupAsn(v6, ip('2001:0:ffff:ffff:ffff:ffff:ffff:ffff'))).toEqual({ asn: 6939, org: 'Hurricane Electric LLC' });
    expect(lookupAsn(v6, ip('2001:1::'))).toBeNull();
    expect(lookupAsn(v6, ip('2001:200:ffff:ffff:ffff:ffff:ffff:ffff'))).toEqual({ asn: 2500, org: 'WIDE Project' });
    expect(lookupAsn(v6, ip('2001:201::'))).toBeNull();
  });

  it('stores each organisation once', () => {
    const repeated = parseAsnCsv('1,2,7,Same\n3,4,7,Same\n5,6,8,Other', 4);
    expect(repeated.orgs).toEqual(['Same', 'Other']);
  });

  it('refuses a file whose ranges are not sorted rather than searching it wrongly', () => {
    expect(() => parseAsnCsv('10,20,1,A\n5,6,2,B', 4)).toThrow(/not sorted/);
  });
});
