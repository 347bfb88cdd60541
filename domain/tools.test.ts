import { describe, expect, it } from 'vitest';
import { requestRef, requestSummary, tools } from './tools.ts';

describe('requestRef', () => {
  it.each([
    ['TRACK_MASTER', 42, 'TM-0042'],
    ['WEB_INTELLIGENCE', 7, 'WI-0007'],
    ['BLOCKCHAIN_ANALYSIS', 9999, 'BA-9999'],
    ['BANK_DISPUTE', 12345, 'BD-12345'],
    ['EXCHANGE_DISPUTE', 1, 'ED-0001'],
    ['SOME_NEW_TOOL', 3, 'REQ-0003'],
  ])('%s number %i → %s', (productRequestType, refNo, expected) => {
    expect(requestRef({ productRequestType, refNo })).toBe(expected);
  });

  it('is null while the request has no number (waiting to be sent, or a replica from before references)', () => {
    expect(requestRef({ productRequestType: 'TRACK_MASTER', refNo: null })).toBeNull();
    expect(requestRef({ productRequestType: 'TRACK_MASTER' })).toBeNull();
  });

  it('gives every tool its own prefix', () => {
    const prefixes = tools.map((tool) => tool.refPrefix);
    expect(new Set(prefixes).size).toBe(tools.length);
  });
});

describe('requestSummary', () => {
  it.each([
    ['TRACK_MASTER', { TRACK_MASTER_fraudUrl: 'https://www.shop-example.test/', TRACK_MASTER_notes: 'x' }, 'Fraud URL: shop-example.test'],
    ['TRACK_MASTER', { TRACK_MASTER_fraudUrl: 'http://shop-example.test/offer?id=1' }, 'Fraud URL: shop-example.test/offer?id=1'],
    ['TRACK_MASTER', { TRACK_MASTER_fraudUrl: 'instagram: @quick.coins' }, 'Fraud URL: instagram: @quick.coins'],
    ['WEB_INTELLIGENCE', { WEB_INTELLIGENCE_websiteName: ' Quick Coins ', WEB_INTELLIGENCE_amountLost: 10 }, 'Website: Quick Coins'],
    ['BLOCKCHAIN_ANALYSIS', { BLOCKCHAIN_ANALYSIS_cryptoAmount: 0.5, BLOCKCHAIN_ANALYSIS_cryptoNetwork: 'ETH' }, 'Amount: 0.5 ETH'],
    ['BLOCKCHAIN_ANALYSIS', { BLOCKCHAIN_ANALYSIS_cryptoNetwork: 'BTC' }, 'Amount: BTC'],
    ['BANK_DISPUTE', { BANK_DISPUTE_amountLost: 1200 }, 'Amount lost: $1,200.00'],
    ['EXCHANGE_DISPUTE', { EXCHANGE_DISPUTE_amountLost: 99.5 }, 'Amount lost: $99.50'],
  ])('%s %j → %s', (productRequestType, requestDetails, expected) => {
    expect(requestSummary({ productRequestType, requestDetails })).toBe(expected);
  });

  it('is null when the main answers are empty or the tool is unknown', () => {
    expect(requestSummary({ productRequestType: 'BANK_DISPUTE', requestDetails: {} })).toBeNull();
    expect(requestSummary({ productRequestType: 'TRACK_MASTER', requestDetails: { TRACK_MASTER_fraudUrl: '  ' } })).toBeNull();
    expect(requestSummary({ productRequestType: 'SOME_NEW_TOOL', requestDetails: { x: 1 } })).toBeNull();
  });

  it('names only fields of its own form', () => {
    for (const tool of tools) {
      const headers = tool.formFields.map((f) => f.backendHeader);
      for (const field of tool.summary.fields) expect(headers).toContain(field);
    }
  });
});
