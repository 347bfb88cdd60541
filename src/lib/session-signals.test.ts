import { afterEach, describe, expect, it } from 'vitest';
import { clearSessionEndNotice, keepSessionEndNotice, readSessionEndNotice, sessionEndText } from './session-end-notice.ts';
import { getSessionSignals, noteSessionAnswer, resetSessionSignals, sessionEndedReason } from './session-signals.ts';

const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ended = (reason: unknown) => ({ error: { code: 'SESSION_ENDED', message: 'Signed out', details: { reason } } });

afterEach(() => {
  resetSessionSignals();
  clearSessionEndNotice();
});

describe('what an answer says about the session', () => {
  it('a 401 SESSION_ENDED reports its reason once (the first answer wins) and leaves the body to the caller', async () => {
    const res = answer(401, ended('account-disabled'));
    expect(await noteSessionAnswer(res)).toBe('account-disabled');
    expect(await res.json()).toEqual(ended('account-disabled'));
    await noteSessionAnswer(answer(401, ended('signed-out-everywhere')));
    expect(getSessionSignals().ended).toBe('account-disabled');
  });

  it('another 401 (an expired token) and a 403 of another code end nothing; 403 SECOND_FACTOR_REQUIRED asks the gate again', async () => {
    expect(await noteSessionAnswer(answer(401, { error: { code: 'UNAUTHENTICATED', message: 'Sign in' } }))).toBeNull();
    await noteSessionAnswer(answer(403, { error: { code: 'FORBIDDEN', message: 'No' } }));
    expect(getSessionSignals()).toEqual({ ended: null, secondFactorAsked: 0 });
    await noteSessionAnswer(answer(403, { error: { code: 'SECOND_FACTOR_REQUIRED', message: 'Verify' } }));
    await noteSessionAnswer(answer(403, { error: { code: 'SECOND_FACTOR_REQUIRED', message: 'Verify' } }));
    expect(getSessionSignals()).toEqual({ ended: null, secondFactorAsked: 2 });
  });

  it('an unknown reason still ends the session, read as signed out elsewhere', () => {
    expect(sessionEndedReason(401, ended('something-new'))).toBe('signed-out-elsewhere');
    expect(sessionEndedReason(200, ended('account-disabled'))).toBeNull();
  });
});

describe('the login page’s notice', () => {
  it('says why, and how many unsent changes were not kept, never that they were sent', () => {
    keepSessionEndNotice({ reason: 'signed-out-elsewhere', unsent: 2 });
    const notice = readSessionEndNotice();
    expect(notice).toEqual({ reason: 'signed-out-elsewhere', unsent: 2 });
    expect(sessionEndText(notice!)).toBe(
      'You were signed out of this device from another device. 2 changes made on this device had not been sent and were not kept; please make them again after signing in.',
    );
    expect(sessionEndText({ reason: 'account-disabled', unsent: 0 })).toBe('Your account has been disabled. Contact support if you think this is a mistake.');
    clearSessionEndNotice();
    expect(readSessionEndNotice()).toBeNull();
  });
});
