import type { RequestStatus } from './enums.ts';

/**
 * The request lifecycle: the one table of what staff may do to a request in each status. The server
 * enforces it (an action it does not allow answers 409 with the current status and the allowed ones)
 * and the staff workspace offers only the actions it allows. See docs/decisions/006-staff-workspace.md.
 *
 * Transitions move the status; operations (payments, contract, final file) keep it.
 */
export const transitions = [
  { from: 'Pending', to: 'Waiting for actions', action: 'price', label: 'Set price' },
  { from: 'Waiting for actions', to: 'In Progress', action: 'start', label: 'Start work' },
  { from: 'In Progress', to: 'Done', action: 'complete', label: 'Mark as Done' },
  { from: 'Pending', to: 'Rejected', action: 'reject', label: 'Reject' },
  { from: 'Waiting for actions', to: 'Rejected', action: 'reject', label: 'Reject' },
  { from: 'In Progress', to: 'Rejected', action: 'reject', label: 'Reject' },
] as const satisfies readonly { from: RequestStatus; to: RequestStatus; action: string; label: string }[];

export type TransitionAction = (typeof transitions)[number]['action'];

/** Statuses in which each operation is allowed (besides its own condition, checked by `allowedActions`). */
export const operations = {
  /** Record a payment: once priced, until paid in full; never on a Rejected request. */
  payment: ['Waiting for actions', 'In Progress', 'Done'],
  /** Mark the contract signed "when it is". */
  contract: ['Waiting for actions', 'In Progress', 'Done'],
  /** Upload (or replace) the final report. */
  deliver: ['In Progress', 'Done'],
} as const satisfies Record<string, readonly RequestStatus[]>;

export type OperationAction = keyof typeof operations;
export type StaffAction = TransitionAction | OperationAction;

export const actionLabels: Record<StaffAction, string> = {
  price: 'Set price',
  start: 'Start work',
  complete: 'Mark as Done',
  reject: 'Reject',
  payment: 'Record payment',
  contract: 'Mark contract signed',
  deliver: 'Upload final file',
};

/** The facts about a request that decide what may be done to it. */
export interface LifecycleState {
  status: RequestStatus;
  hasFinalFile: boolean;
  contractSigned: boolean;
  /** null while no price is set. */
  leftToPay: number | null;
}

/** The statuses a request may move to from `status`, per the table. */
export function nextStatuses(status: RequestStatus): RequestStatus[] {
  return transitions.filter((t) => t.from === status).map((t) => t.to);
}

export function findTransition(from: RequestStatus, to: RequestStatus) {
  return transitions.find((t) => t.from === from && t.to === to);
}

/**
 * Why an action cannot be taken now, or null when it can. The status rule comes from the table; the
 * extra conditions are the ones the business states (Done needs a final file; no payment past the total).
 */
export function blockedReason(action: StaffAction, state: LifecycleState): string | null {
  if (action in operations) {
    const allowedIn = operations[action as OperationAction] as readonly RequestStatus[];
    if (!allowedIn.includes(state.status)) return `${actionLabels[action]} is not allowed on a request that is ${state.status}.`;
    if (action === 'payment' && (state.leftToPay === null || state.leftToPay <= 0)) return 'Nothing is left to pay on this request.';
    if (action === 'contract' && state.contractSigned) return 'The contract is already marked as signed.';
    return null;
  }
  const transition = transitions.find((t) => t.action === action && t.from === state.status);
  if (!transition) return `${actionLabels[action]} is not allowed on a request that is ${state.status}.`;
  if (action === 'complete' && !state.hasFinalFile) return 'Upload the final file before marking the request as Done.';
  return null;
}

/** Every action the workspace should offer on a request in this state, in the table's order. */
export function allowedActions(state: LifecycleState): StaffAction[] {
  const all: StaffAction[] = ['price', 'start', 'deliver', 'complete', 'payment', 'contract', 'reject'];
  return all.filter((action) => blockedReason(action, state) === null);
}
