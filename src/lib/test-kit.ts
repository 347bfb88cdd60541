import { afterEach, beforeEach } from 'vitest';
import type { NotificationItem, RefundStatus } from '../../domain/schemas.ts';
import type { ClientFile, RequestFile, StaffRequest } from '../../domain/staff.ts';
import { type LocalRefund, type LocalRequest, type OutboxCommand, PortalDb } from './db.ts';

/**
 * What client tests share: rows of the domain as the replica holds them, a fresh replica per test, and
 * the clock and network a test drives by hand. Tests only: an app module never imports this file (a lint
 * rule in eslint.config.js says so), so nothing here reaches the bundle.
 *
 * Each factory gives a plain row with neutral values; a test states what it depends on as overrides, so
 * the values a test asserts on are written in that test.
 */

const CREATED = '2026-01-01T00:00:00.000Z';

/** A client's request as the replica holds it: a Track Master request, pending, with no price yet. */
export function localRequest(id: string, extra: Partial<LocalRequest> = {}): LocalRequest {
  return {
    id,
    productRequestType: 'TRACK_MASTER',
    refNo: null,
    Created_Time: CREATED,
    status: 'Pending',
    contractSigned: false,
    totalAmount: null,
    paid: 0,
    leftToPay: null,
    requestDetails: {},
    attachments: [],
    updatedAt: CREATED,
    rejectionReason: null,
    ...extra,
  };
}

/** A request as staff see it: the client's row with its tool, version, owner and final file. */
export function staffRequest(id: string, extra: Partial<StaffRequest> = {}): StaffRequest {
  return { ...localRequest(id, { refNo: 1 }), toolId: 'track-master', version: 1, userId: 'u1', finalFileId: null, ...extra } as StaffRequest;
}

/** A staff request file around `request`: its client and nothing attached, no action allowed. */
export function requestFile(request: StaffRequest, extra: Partial<RequestFile> = {}): RequestFile {
  const uid = request.userId;
  return {
    request,
    client: { uid, email: `${uid}@demo.test`, name: 'Casey Client' },
    evidence: [],
    finalFiles: [],
    trackingLinks: [],
    visits: [],
    deals: [],
    refunds: [],
    notes: [],
    history: [],
    allowedActions: [],
    ...extra,
  };
}

/** A staff client file: an active client who has not filled the initial form, with nothing else on file. */
export function clientFile(uid: string, extra: Partial<ClientFile['client']> = {}): ClientFile {
  return {
    client: {
      uid,
      email: `${uid}@demo.test`,
      firstName: 'Casey',
      lastName: 'Client',
      isClient: true,
      isAdmin: false,
      isStaff: false,
      filledInitialForm: false,
      initialForm: null,
      activityStatus: 'ACTIVE',
      createdAt: CREATED,
      phone: null,
      country: null,
      version: 1,
      ...extra,
    },
    requests: [],
    evidence: [],
    deals: [],
    refunds: [],
    threads: [],
    files: [],
    notifications: [],
    notes: [],
    history: [],
  };
}

/** A partial refund request of process `processId`, undecided unless `extra` says otherwise. */
export function refundRow(id: string, processId: string, status: RefundStatus, createdAt: string, extra: Partial<LocalRefund> = {}): LocalRefund {
  return { id, tool: 'BANK_DISPUTE', processId, refundRequestType: 'PARTIAL', reason: `Reason ${id}`, createdAt, status, amount: null, note: null, decidedAt: null, ...extra };
}

/** Broadcast notification number `n` (1–99), created at noon on day `n` of January 2026, with message `#n`. */
export function notificationRow(n: number): NotificationItem {
  return { id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, message: `#${n}`, createdAt: new Date(Date.UTC(2026, 0, n, 12)).toISOString(), userId: null };
}

/**
 * A fresh replica for each test of the enclosing `describe` (or file): opened before the test, closed and
 * deleted after it, after the test's own `afterEach` hooks (Vitest runs those last registered first), so
 * a test's cleanup still finds it open. `name` is the uid the replica belongs to (a random one by default);
 * `use` receives each test's replica.
 */
export function withReplica(use: (db: PortalDb) => void, name: () => string = () => `replica-${crypto.randomUUID()}`): void {
  let db: PortalDb | undefined;
  beforeEach(async () => {
    db = new PortalDb(name());
    await db.open();
    use(db);
  });
  afterEach(async () => {
    db?.close();
    await db?.delete();
    db = undefined;
  });
}

/** A clock whose timers fire only on `advance`. */
export function fakeClock(start = 1_000_000) {
  let now = start;
  const timers = new Set<{ at: number; fire: () => void }>();
  const clock = {
    fired: 0,
    now: () => now,
    /** How many timers are set and have neither fired nor been cancelled: a loop asleep on one shows here. */
    timers: () => timers.size,
    setTimer(fire: () => void, ms: number) {
      const timer = { at: now + ms, fire };
      timers.add(timer);
      return () => void timers.delete(timer);
    },
    advance(ms: number) {
      now += ms;
      for (const timer of [...timers].filter((t) => t.at <= now)) {
        timers.delete(timer);
        clock.fired++;
        timer.fire();
      }
    },
  };
  return clock;
}
export type FakeClock = ReturnType<typeof fakeClock>;

/** A network that answers each command's request when the test says so. */
export function gatedNetwork() {
  const requests: Array<{ id: string; token: string; answered: boolean; answer(response: Response | Error): void }> = [];
  return {
    requests,
    ids: () => requests.map((r) => r.id),
    /** The requests still waiting for their answer. */
    open: () => requests.filter((r) => !r.answered),
    /** The open request of command `id`. */
    of(id: string) {
      const request = requests.find((r) => r.id === id && !r.answered);
      if (!request) throw new Error(`no open request for ${id}`);
      return request;
    },
    send(command: OutboxCommand, token = 'token'): Promise<Response> {
      return new Promise((resolve, reject) => {
        const request = {
          id: command.commandId,
          token,
          answered: false,
          answer: (response: Response | Error) => {
            request.answered = true;
            if (response instanceof Error) reject(response);
            else resolve(response);
          },
        };
        requests.push(request);
      });
    },
  };
}
export type GatedNetwork = ReturnType<typeof gatedNetwork>;
