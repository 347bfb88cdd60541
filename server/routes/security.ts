import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { envelope } from '../../domain/schemas.ts';
import {
  AccountDisabledAnswer,
  ConfirmTotpBody,
  DisableAccountBody,
  EnrolmentAnswer,
  RecoveryCodes,
  RegisterPasskeyBody,
  SecurityStatus,
  SessionItem,
  TotpSetup,
  VerifiedAnswer,
  VerifyCodeBody,
  VerifyPasskeyBody,
} from '../../domain/security.ts';
import { authenticationOptions, registerPasskey, registrationOptions, removePasskey, verifyPasskey } from '../services/passkeys.ts';
import { confirmTotp, LockedError, removeTotp, renewRecoveryCodes, requireStepUpIfEnrolled, securityStatus, setupTotp, verifyCode } from '../services/second-factor.ts';
import { listSessions, setAccountDisabled, signOutEverywhere, signOutOtherSessions, signOutSession } from '../services/sessions.ts';

/**
 * Second factors, step-up and sessions (docs/api.md, Security; docs/decisions/031-second-factor-and-sessions.md).
 * Every route is the caller's own account, open to any signed-in user. The status and the verification routes are
 * reached before the session has verified its second factor, since this is where it does; the others want it once
 * the account has one, so a stolen password alone can neither list nor sign out the owner's devices. Adding a factor to an account that has one, removing one and
 * new recovery codes need step-up. Secrets (a new TOTP secret, recovery codes) are in the answer that makes them
 * and nowhere else. The workflows are services/second-factor.ts, services/passkeys.ts and services/sessions.ts.
 */
export async function securityRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: app.authenticate };
  const beforeSecondFactor = { onRequest: app.authenticateBeforeSecondFactor };
  const stepUp = { onRequest: [app.authenticate, app.requireStepUp] };
  const stepUpIfEnrolled = { onRequest: [app.authenticate, (request: FastifyRequest, reply: FastifyReply) => requireStepUpIfEnrolled(app, request, reply)] };
  const tags = ['security'];
  const SessionParams = z.object({ id: z.string().max(64) });
  const WebAuthnOptions = envelope(z.record(z.string(), z.unknown()));

  // No command id here: the idempotency store keeps a first answer for replay, and some of these answers are secrets
  // shown once (a TOTP secret, recovery codes). Each call is safe to repeat by itself or refused when stale.
  app.addHook('onRequest', async (request) => {
    delete request.headers['idempotency-key'];
  });

  // A wrong-code lockout answers 429 with Retry-After (seconds), as HTTP clients and proxies read it.
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof LockedError) reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  });

  api.get(
    '/security',
    { ...beforeSecondFactor, schema: { tags, summary: "What the caller's account has (passkeys, authenticator app, recovery codes left) and whether this session verified a second factor; never a secret", response: { 200: envelope(SecurityStatus) } } },
    async (request) => ({ data: await securityStatus(app.db, request) }),
  );

  api.post(
    '/security/totp',
    { ...stepUpIfEnrolled, schema: { tags, summary: 'Starts an authenticator app: a new secret and its otpauth:// URI, shown once, pending until confirmed (step-up when the account has a factor)', response: { 201: envelope(TotpSetup) } } },
    async (_request, reply) => reply.status(201).send({ data: await setupTotp(app, _request) }),
  );

  api.post(
    '/security/totp/confirm',
    { ...stepUpIfEnrolled, schema: { tags, summary: "The pending authenticator's first code: it becomes the account's, this session is verified; the first factor ever also answers 10 recovery codes, shown once", body: ConfirmTotpBody, response: { 200: envelope(EnrolmentAnswer) } } },
    async (request) => ({ data: await confirmTotp(app, request, request.body.code) }),
  );

  api.delete(
    '/security/totp',
    { ...stepUp, schema: { tags, summary: 'Removes the authenticator app (step-up); staff cannot remove their last factor (409 LAST_FACTOR)', response: { 204: z.null() } } },
    async (request, reply) => {
      await removeTotp(app, request);
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/security/verify',
    { ...beforeSecondFactor, schema: { tags, summary: 'Verifies this session with an authenticator code or a recovery code (used up); wrong codes count toward 5 per 15 minutes (429 SECOND_FACTOR_LOCKED)', body: VerifyCodeBody, response: { 200: envelope(VerifiedAnswer) } } },
    async (request) => ({ data: await verifyCode(app, request, request.body) }),
  );

  api.post(
    '/security/recovery-codes',
    { ...stepUp, schema: { tags, summary: 'A new set of 10 recovery codes, shown once; the earlier ones stop working (step-up)', response: { 201: envelope(RecoveryCodes) } } },
    async (request, reply) => reply.status(201).send({ data: { recoveryCodes: await renewRecoveryCodes(app, request) } }),
  );

  api.post(
    '/security/passkeys/options',
    { ...stepUpIfEnrolled, schema: { tags, summary: 'WebAuthn registration options for navigator.credentials.create (@simplewebauthn/browser startRegistration); step-up when the account has a factor', response: { 200: WebAuthnOptions } } },
    async (request) => ({ data: (await registrationOptions(app, request)) as unknown as Record<string, unknown> }),
  );

  api.post(
    '/security/passkeys',
    { ...stepUpIfEnrolled, schema: { tags, summary: "Registers a passkey from the browser's registration response; this session is verified; the first factor ever also answers recovery codes", body: RegisterPasskeyBody, response: { 201: envelope(EnrolmentAnswer) } } },
    async (request, reply) => reply.status(201).send({ data: await registerPasskey(app, request, request.body) }),
  );

  api.post(
    '/security/passkeys/verify/options',
    { ...beforeSecondFactor, schema: { tags, summary: 'WebAuthn authentication options for navigator.credentials.get (@simplewebauthn/browser startAuthentication)', response: { 200: WebAuthnOptions } } },
    async (request) => ({ data: (await authenticationOptions(app, request)) as unknown as Record<string, unknown> }),
  );

  api.post(
    '/security/passkeys/verify',
    { ...beforeSecondFactor, schema: { tags, summary: 'Verifies this session with a passkey; a refused one counts toward the limit', body: VerifyPasskeyBody, response: { 200: envelope(VerifiedAnswer) } } },
    async (request) => ({ data: await verifyPasskey(app, request, request.body.response) }),
  );

  api.delete(
    '/security/passkeys/:id',
    { ...stepUp, schema: { tags, summary: 'Removes a passkey (step-up); staff cannot remove their last factor (409 LAST_FACTOR)', params: SessionParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await removePasskey(app, request, request.params.id);
      return reply.status(204).send(null);
    },
  );

  api.get(
    '/security/sessions',
    { ...signedIn, schema: { tags, summary: "The account's signed-in devices, newest first, the caller's marked current", response: { 200: envelope(z.array(SessionItem)) } } },
    async (request) => ({ data: await listSessions(app.db, request.user.uid, request.authSession?.id ?? '') }),
  );

  api.post(
    '/security/sessions/:id/sign-out',
    { ...signedIn, schema: { tags, summary: 'Signs out one of the other devices: its next request, on any route, answers 401 SESSION_ENDED', params: SessionParams, response: { 204: z.null() } } },
    async (request, reply) => {
      await signOutSession(app, request, request.params.id);
      return reply.status(204).send(null);
    },
  );

  api.post(
    '/security/sessions/sign-out-others',
    { ...signedIn, schema: { tags, summary: 'Signs out every device but this one, those signed in but not seen yet included', response: { 200: envelope(z.object({ ended: z.number().int() })) } } },
    async (request) => ({ data: await signOutOtherSessions(app, request) }),
  );

  api.post(
    '/security/sessions/sign-out-everywhere',
    { ...signedIn, schema: { tags, summary: 'Signs out every device, this one too (the advice of a sign-in alert): each next request answers 401 SESSION_ENDED', response: { 204: z.null() } } },
    async (request, reply) => {
      await signOutEverywhere(app, request);
      return reply.status(204).send(null);
    },
  );

  api.put(
    '/staff/users/:uid/disabled',
    {
      onRequest: [app.requireAdmin, app.requireStepUp],
      schema: {
        tags: ['staff', 'admin'],
        summary: 'Disables (or enables again) an account (admins, step-up, never oneself): its sessions end at their next request and the identity provider refuses its sign-ins',
        params: z.object({ uid: z.string().min(1).max(128) }),
        body: DisableAccountBody,
        response: { 200: envelope(AccountDisabledAnswer) },
      },
    },
    async (request) => ({ data: await setAccountDisabled(app, request, request.params.uid, request.body.disabled) }),
  );
}
