import { describe, expect, it } from 'vitest';
import { FALLBACK_BODY, FALLBACK_TITLE, notificationOf, sameOriginPath } from './push.ts';

const ORIGIN = 'https://portal.example';
const data = (value: unknown) => ({ json: () => value });

describe('what a push shows', () => {
  it('shows the payload: title, body, tag, and the URL and delivery id for the click', () => {
    const shown = notificationOf(data({ v: 1, id: 'd1', title: 'Recovery', body: 'Support replied to your message', url: '/contact-requests?thread=t1', tag: 'thread:t1' }), ORIGIN);
    expect(shown).toEqual({
      title: 'Recovery',
      options: { body: 'Support replied to your message', tag: 'thread:t1', data: { url: '/contact-requests?thread=t1', id: 'd1' }, icon: '/icons/icon-192.png', badge: '/icons/icon-96.png' },
    });
  });

  it('still shows a neutral notification when the payload is missing, not JSON or not a payload', () => {
    const broken = { json: () => JSON.parse('{') as unknown };
    for (const input of [null, broken, data({ hello: 'world' }), data({ v: 2, id: 'x', title: 't', body: 'b', url: '/', tag: 't' })]) {
      const shown = notificationOf(input, ORIGIN);
      expect(shown.title).toBe(FALLBACK_TITLE);
      expect(shown.options.body).toBe(FALLBACK_BODY);
      expect(shown.options.data).toEqual({ url: '/', id: null });
    }
  });

  it('opens only paths of this app', () => {
    expect(sameOriginPath('/tool/track-master?request=r1', ORIGIN)).toBe('/tool/track-master?request=r1');
    expect(sameOriginPath('//evil.example/x', ORIGIN)).toBeNull();
    expect(sameOriginPath('https://evil.example/x', ORIGIN)).toBeNull();
    expect(sameOriginPath('/\\evil.example', ORIGIN)).toBeNull();
    expect(sameOriginPath(42, ORIGIN)).toBeNull();
  });
});
