import { SECOND_FACTOR_REQUIRED, SESSION_ENDED, STEP_UP_REQUIRED, SessionEndReason } from '../../domain/security.ts';
import { ApiError as ApiErrorShape } from '../../domain/schemas.ts';
import { ApiError } from './api-errors.ts';
import { createStore } from './create-store.ts';

/**
 * What the server says about the session itself, whichever call hears it first (the api client, the outbox's
 * sender, the pulls, the events stream): the session was ended elsewhere (401 SESSION_ENDED), or this session
 * has not verified its second factor (403 SECOND_FACTOR_REQUIRED). The signed-in layout and the staff gate act
 * on it; the module only records it, so every caller reports the same way.
 */
interface SessionSignals {
  /** Why the server ended this session; set once, by the first answer that says so. */
  ended: SessionEndReason | null;
  /** Bumped by every 403 SECOND_FACTOR_REQUIRED: the staff gate asks again. */
  secondFactorAsked: number;
}

const store = createStore<SessionSignals>({ ended: null, secondFactorAsked: 0 });

export function getSessionSignals(): SessionSignals {
  return store.get();
}

export function subscribeSessionSignals(listener: () => void): () => void {
  return store.subscribe(listener);
}

export function useSessionEnded(): SessionEndReason | null {
  return store.useSelect((s) => s.ended);
}

export function useSecondFactorAsked(): number {
  return store.useSelect((s) => s.secondFactorAsked);
}

/** A new sign-in starts with nothing reported. */
export function resetSessionSignals(): void {
  store.set({ ended: null, secondFactorAsked: 0 });
}

export function reportSessionEnded(reason: SessionEndReason): void {
  if (store.get().ended === null) store.set({ ended: reason });
}

export function reportSecondFactorRequired(): void {
  store.set({ secondFactorAsked: store.get().secondFactorAsked + 1 });
}

/** The reason of a 401 SESSION_ENDED body; null for any other answer. An unknown reason reads as signed out elsewhere. */
export function sessionEndedReason(status: number, body: unknown): SessionEndReason | null {
  if (status !== 401) return null;
  const parsed = ApiErrorShape.safeParse(body);
  if (!parsed.success || parsed.data.error.code !== SESSION_ENDED) return null;
  const reason = SessionEndReason.safeParse(parsed.data.error.details?.reason);
  return reason.success ? reason.data : 'signed-out-elsewhere';
}

/**
 * Reads an answer for what it says about the session and reports it. Only 401 and 403 bodies are read, from a
 * clone, so the caller still reads the body itself. Returns the end's reason when the session has ended.
 */
export async function noteSessionAnswer(res: Response): Promise<SessionEndReason | null> {
  if (res.status !== 401 && res.status !== 403) return null;
  const body: unknown = await res
    .clone()
    .json()
    .catch(() => null);
  const reason = sessionEndedReason(res.status, body);
  if (reason) reportSessionEnded(reason);
  else if (res.status === 403 && ApiErrorShape.safeParse(body).data?.error.code === SECOND_FACTOR_REQUIRED) reportSecondFactorRequired();
  return reason;
}

/** A 403 SECOND_FACTOR_REQUIRED: this session has not verified the account's second factor yet (the gate asks for it). */
export function isSecondFactorRequired(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403 && err.code === SECOND_FACTOR_REQUIRED;
}

export function isStepUpRequired(err: unknown): boolean {
  return err instanceof ApiError && err.status === 403 && err.code === STEP_UP_REQUIRED;
}

// ---- step-up: a sensitive action asks for the second factor again, once, through the one dialog the layout shows ----

interface StepUpState {
  /** The question on screen; answered with true once the factor was verified again, false when cancelled. */
  asking: { id: number; answer(verified: boolean): void } | null;
}

const stepUpStore = createStore<StepUpState>({ asking: null });
let nextStepUpId = 1;
/** Whether a step-up dialog is mounted to answer; without one an action is not held waiting forever. */
let stepUpAnswerers = 0;

/**
 * Asks for the second factor again (the layout's dialog shows); resolves true when verified, false when the person
 * cancels or nothing can ask. A question still open is cancelled by a newer one.
 */
export function requestStepUp(): Promise<boolean> {
  if (stepUpAnswerers === 0) return Promise.resolve(false);
  stepUpStore.get().asking?.answer(false);
  return new Promise((resolve) => {
    const id = nextStepUpId++;
    stepUpStore.set({
      asking: {
        id,
        answer(verified) {
          if (stepUpStore.get().asking?.id === id) stepUpStore.set({ asking: null });
          resolve(verified);
        },
      },
    });
  });
}

/** For the dialog: the open question, if any. Registers the dialog as able to answer while mounted (see `registerStepUpDialog`). */
export function useStepUpQuestion(): StepUpState['asking'] {
  return stepUpStore.useSelect((s) => s.asking);
}

export function getStepUpQuestion(): StepUpState['asking'] {
  return stepUpStore.get().asking;
}

/** The dialog calls this on mount and the returned function on unmount. */
export function registerStepUpDialog(): () => void {
  stepUpAnswerers++;
  return () => {
    stepUpAnswerers--;
    if (stepUpAnswerers === 0) stepUpStore.get().asking?.answer(false);
  };
}

/**
 * Sends `send`; when the server answers 403 STEP_UP_REQUIRED, asks for the second factor again and sends once more
 * after it was verified. Resolves `{ cancelled: true }` when the person cancelled, so the caller leaves its form as it was.
 */
export async function withStepUp<T>(send: () => Promise<T>): Promise<{ cancelled: false; value: T } | { cancelled: true }> {
  try {
    return { cancelled: false, value: await send() };
  } catch (err) {
    if (!isStepUpRequired(err)) throw err;
    if (!(await requestStepUp())) return { cancelled: true };
    return { cancelled: false, value: await send() };
  }
}
