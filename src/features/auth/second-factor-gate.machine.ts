import { type ActorRefFrom, assign, fromPromise, setup } from 'xstate';
import type { SecurityStatus } from '../../../domain/security.ts';

/**
 * What the server says when the gate asks: the account's factors and this session's state, or that it cannot be
 * asked (no connection, the server down) together with whether this device saw this session verify before.
 */
export type GateAnswer = { kind: 'status'; status: SecurityStatus } | { kind: 'unreachable'; verifiedHere: boolean };

export type GateEvent =
  /** The staff workspace opens: it asks the server before showing anything. */
  | { type: 'CHECK' }
  /** A factor was added (a passkey or an authenticator); a first factor's answer carries the recovery codes. */
  | { type: 'ENROLLED'; recoveryCodes?: string[] }
  /** The person confirmed they saved the recovery codes. */
  | { type: 'CODES_SAVED' }
  /** The session verified its second factor (passkey, code or recovery code). */
  | { type: 'VERIFIED' }
  /** A call answered 403 SECOND_FACTOR_REQUIRED: the server does not count this session as verified. */
  | { type: 'REQUIRED_AGAIN' }
  /** Try again: back online, or the person's Retry. */
  | { type: 'RETRY' };

/** The server lets this session through: the factor is not required of it, or it verified one. */
export function opens(answer: GateAnswer): boolean {
  return answer.kind === 'status' && (!answer.status.required || answer.status.verifiedAt !== null);
}

export function hasFactor(status: SecurityStatus): boolean {
  return status.passkeys.length > 0 || status.totp;
}

/**
 * The second-factor gate of the signed-in screens (docs/api.md, Security; docs/decisions/033). The server enforces
 * the factor on every staff route and on every route of an account that has one; the gate is the screens' side. A
 * client's screens open at once (`unchecked`): most clients have no factor, and asking first would hold every start
 * on the network; the first 403 SECOND_FACTOR_REQUIRED (the first pull of a new sign-in) closes them. The staff
 * workspace asks first (CHECK). Either way the gate asks GET /api/security, shows enrolment (staff with no factor
 * yet, then the recovery codes once) or verification, and opens once this session is verified. Offline, a session
 * this device saw verify keeps reading its copies; one it did not see verify waits for the connection, since only
 * the server can check a factor. Side effects are injected actors and actions (tests use `.provide()`).
 */
export const secondFactorGateMachine = setup({
  types: {
    context: {} as { status: SecurityStatus | null; recoveryCodes: string[] | null; error: string | null },
    events: {} as GateEvent,
  },
  actions: {
    /** Notes on the device that this session verified (for offline reading). */
    remember: () => {},
    /** Drops that note: the server said this session is not verified. */
    forget: () => {},
  },
  actors: {
    askStatus: fromPromise<GateAnswer>(async () => ({ kind: 'unreachable', verifiedHere: false })),
  },
}).createMachine({
  id: 'secondFactorGate',
  context: { status: null, recoveryCodes: null, error: null },
  initial: 'unchecked',
  states: {
    /** Nothing asked yet: a client's screens show; the staff workspace's CHECK or any 403 SECOND_FACTOR_REQUIRED asks. */
    unchecked: {
      on: { CHECK: 'checking', REQUIRED_AGAIN: 'checking' },
    },
    checking: {
      invoke: {
        src: 'askStatus',
        onDone: [
          { guard: ({ event }) => opens(event.output), target: 'open', actions: assign({ status: ({ event }) => (event.output.kind === 'status' ? event.output.status : null), error: null }) },
          { guard: ({ event }) => event.output.kind === 'unreachable' && event.output.verifiedHere, target: 'openOffline', actions: assign({ error: null }) },
          { guard: ({ event }) => event.output.kind === 'unreachable', target: 'offline', actions: assign({ error: null }) },
          { guard: ({ event }) => event.output.kind === 'status' && !hasFactor(event.output.status), target: 'enrolling', actions: assign({ status: ({ event }) => (event.output.kind === 'status' ? event.output.status : null), error: null }) },
          { target: 'verifying', actions: assign({ status: ({ event }) => (event.output.kind === 'status' ? event.output.status : null), error: null }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => (event.error instanceof Error ? event.error.message : 'Something went wrong.') }) },
      },
    },
    enrolling: {
      on: {
        ENROLLED: [
          { guard: ({ event }) => (event.recoveryCodes?.length ?? 0) > 0, target: 'showingCodes', actions: assign({ recoveryCodes: ({ event }) => event.recoveryCodes ?? null }) },
          { target: 'checking' },
        ],
      },
    },
    // Shown once: the codes leave the machine's memory as the person moves on.
    showingCodes: {
      on: { CODES_SAVED: { target: 'checking', actions: assign({ recoveryCodes: null }) } },
    },
    verifying: {
      on: { VERIFIED: 'checking' },
    },
    open: {
      entry: 'remember',
      on: { REQUIRED_AGAIN: { target: 'checking', actions: 'forget' } },
    },
    /** The server cannot be asked and this device saw the session verify: the workspace reads its copies. */
    openOffline: {
      on: { RETRY: 'checking', REQUIRED_AGAIN: { target: 'checking', actions: 'forget' } },
    },
    /** The server cannot be asked and nothing on the device says this session verified: wait for the connection. */
    offline: {
      on: { RETRY: 'checking' },
    },
    failed: {
      on: { RETRY: 'checking' },
    },
  },
});

export type GateActor = ActorRefFrom<typeof secondFactorGateMachine>;
