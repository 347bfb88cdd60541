import { describe, expect, it } from 'vitest';
import { DELIVERY_EVENT_KINDS, type EventFacts, deliveryEvents, emailSubject, eventDefinition } from './notify-events.ts';

/** Facts with a tell-tale value each: none of them may reach a lock screen or a mail's subject, except the reference. */
const facts: EventFacts = {
  requestId: '0b9d6c1e-7f1a-4c52-9a8e-3d2f1b0c9e7a',
  tool: 'bank-dispute',
  ref: 'BD-0042',
  threadId: '5e3c1a2b-1111-4c52-9a8e-3d2f1b0c9e7a',
  clientUid: 'kq7Yx2uid',
  clientName: 'Zelda Moneypenny',
  refundId: '7a7a7a7a-2222-4c52-9a8e-3d2f1b0c9e7a',
  approved: true,
  downloadable: true,
};
const secrets = ['Zelda', 'Moneypenny', '$', '0b9d6c1e', '5e3c1a2b', '7a7a7a7a'];

describe('delivery events', () => {
  it.each(DELIVERY_EVENT_KINDS)('%s: the lock-screen line and the mail subject name no person, amount or id', (kind) => {
    const event = eventDefinition(kind)!;
    for (const text of [event.neutral(facts), emailSubject(event.line(facts))]) {
      for (const secret of secrets) expect(text).not.toContain(secret);
      expect(text.length).toBeGreaterThan(5);
    }
  });

  it.each(DELIVERY_EVENT_KINDS)('%s: a click opens a path of this site, built only of ids', (kind) => {
    const url = eventDefinition(kind)!.url(facts);
    expect(url.startsWith('/')).toBe(true);
    expect(url.startsWith('//')).toBe(false);
    expect(url).not.toContain('Zelda');
    expect(eventDefinition(kind)!.url({})).toMatch(/^\/[a-z-]*/);
  });

  it('client events are clients’, staff events staff’s, and every staff event has its own switch unless essential', () => {
    for (const kind of DELIVERY_EVENT_KINDS) {
      const event = eventDefinition(kind)!;
      if (event.audience === 'staff' && event.category !== 'essential') expect(event.staffSwitch).toBeTruthy();
      else if (event.audience !== 'staff') expect(event.category).not.toBe('staff');
    }
    // Admins hear of a proposed change of the payment details whatever they chose.
    expect(deliveryEvents.paymentDetailsProposed).toMatchObject({ audience: 'staff', category: 'essential' });
    expect(deliveryEvents.paymentDetailsDecided.line({ approved: false })).toMatch(/rejected/);
    expect(deliveryEvents.payment.category).toBe('essential');
    expect(deliveryEvents.priced.url(facts)).toBe(`/tool/bank-dispute?request=${facts.requestId}`);
    expect(deliveryEvents.reply.url(facts)).toBe(`/contact-requests?thread=${facts.threadId}`);
  });
});
