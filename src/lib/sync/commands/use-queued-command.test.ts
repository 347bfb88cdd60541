import { act, renderHook, waitFor } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { texts } from '../../../../domain/texts.ts';
import { commandKinds, queueContact } from './kinds.ts';
import { type OutboxCommand, PortalDb } from '../../db.ts';
import { withReplica } from '../../test-kit.ts';
import { type SenderDeps, sendNext } from '../sender.ts';
import { ReplicaContext } from '../../replica.ts';
import { getUiState, removeMessage } from '../../ui-state.ts';
import { type QueueOutcome, refusedText, useQueuedCommand } from './use-queued-command.ts';

const said = () => getUiState().messages.map((m) => [m.message, m.severity]);

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** The real sender's step, with the server's answer scripted: what the outbox does between write and answer. */
function serverAnswers(response: Response): SenderDeps {
  return {
    kinds: commandKinds,
    getToken: async () => 'token',
    send: async () => response,
    now: Date.now,
    random: () => 0.5,
  };
}

let db: PortalDb;
withReplica((opened) => (db = opened));


afterEach(async () => {
  for (const m of getUiState().messages) removeMessage(m.key);
  vi.restoreAllMocks();
});

function renderQueue(settleMs?: number) {
  const wrapper = ({ children }: { children: ReactNode }) => createElement(ReplicaContext.Provider, { value: db }, children);
  return renderHook(() => useQueuedCommand(settleMs === undefined ? {} : { settleMs }), { wrapper });
}

/** Starts queueing a contact message and returns its pending outcome, once the command is in the outbox. */
async function startQueue(queue: ReturnType<typeof renderQueue>['result']['current']['queue']): Promise<{ outcome: Promise<QueueOutcome | null>; command: OutboxCommand }> {
  let outcome!: Promise<QueueOutcome | null>;
  act(() => {
    outcome = queue(() => queueContact(db, 'Where is my money?', 'Please call me.'), { sent: texts.messageSent });
  });
  let command: OutboxCommand | undefined;
  await waitFor(async () => {
    command = await db.outbox.toCollection().first();
    expect(command).toBeDefined();
  });
  return { outcome, command: command! };
}

describe('useQueuedCommand', () => {
  it('online: the success text only once the server has taken the command and it left the outbox', async () => {
    const { result } = renderQueue(60_000);
    const { outcome, command } = await startQueue(result.current.queue);
    // Written and shown as waiting, but not sent yet: nothing may claim success. A fixed window, because
    // what it shows is a message that does not appear, which has no event to wait for.
    await new Promise((r) => setTimeout(r, 30));
    expect(said()).toEqual([]);
    expect(result.current.queuing).toBe(true);

    const answer = { data: { id: 'server-1', subject: 'Where is my money?', message: 'Please call me.', createdAt: '2026-01-10T08:00:00.000Z', status: 'open' } };
    await act(async () => {
      expect(await sendNext(db, serverAnswers(json(201, answer)))).toBe('sent');
    });
    await act(async () => {
      expect(await outcome).toBe('sent');
    });
    expect(await db.outbox.get(command.seq!)).toBeUndefined();
    expect(said()).toEqual([[texts.messageSent, 'success']]);
    expect(result.current.queuing).toBe(false);
  });

  it('online: a refusal (4xx) is shown with the server message and where to edit or discard it, never as success', async () => {
    const { result } = renderQueue(60_000);
    const { outcome } = await startQueue(result.current.queue);
    const refusal = { error: { code: 'NOT_REFUNDABLE', message: 'Only requests that are In Progress or Done can be refunded; this request is Pending.' } };
    await act(async () => {
      expect(await sendNext(db, serverAnswers(json(409, refusal)))).toBe('failed');
    });
    await act(async () => {
      expect(await outcome).toBe('failed');
    });
    expect(said()).toEqual([[refusedText(refusal.error.message), 'error']]);
    expect(refusedText(refusal.error.message)).toContain(refusal.error.message);
    expect(refusedText(refusal.error.message)).toMatch(/outbox.*edit or discard/i);
    // The command stays for the outbox panel: Edit, Retry or Discard.
    expect(await db.outbox.count()).toBe(1);
  });

  it('online: a 5xx puts it in back-off: said to be saved on the device at once, not after the whole wait', async () => {
    const { result } = renderQueue(60_000);
    const { outcome } = await startQueue(result.current.queue);
    await act(async () => {
      expect(await sendNext(db, serverAnswers(json(500, { error: { code: 'INTERNAL', message: 'boom' } })))).toBe('retry');
    });
    await act(async () => {
      expect(await outcome).toBe('queued');
    });
    expect(said()).toEqual([[texts.savedOnDevice, 'info']]);
    expect(await db.outbox.count()).toBe(1);
  });

  it('online: behind a command in back-off (FIFO), no answer is coming soon: saved on the device at once', async () => {
    await queueContact(db, 'Earlier', 'Sent while the server was down.');
    await db.outbox.toCollection().modify({ attempts: 3, nextAttemptAt: Date.now() + 60_000, error: 'Server busy (503)' });
    const { result } = renderQueue(60_000);
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.queue(() => queueContact(db, 'Later', 'Waits behind it.'), { sent: texts.messageSent });
    });
    expect(outcome).toBe('queued');
    expect(said()).toEqual([[texts.savedOnDevice, 'info']]);
  });

  it('online: no sender answers within the wait: saved on this device', async () => {
    const { result } = renderQueue(50);
    const { outcome } = await startQueue(result.current.queue);
    await act(async () => {
      expect(await outcome).toBe('queued');
    });
    expect(said()).toEqual([[texts.savedOnDevice, 'info']]);
  });

  it('offline: queued at once, without waiting, and the user hears it leaves with the connection', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { result } = renderQueue(60_000);
    let outcome: unknown;
    await act(async () => {
      outcome = await result.current.queue(() => queueContact(db, 'Subject', 'Message'), { sent: texts.messageSent });
    });
    expect(outcome).toBe('queued');
    expect(said()).toEqual([[texts.sentWhenOnline, 'info']]);
  });

  it('a write that fails says so and resolves to null; a second call while one runs is dropped', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { result } = renderQueue(50);
    let release: () => void = () => undefined;
    const write = vi.fn(() => new Promise<string>((_resolve, reject) => (release = () => reject(new Error('disk full')))));
    let outcomes: unknown[] = [];
    await act(async () => {
      const first = result.current.queue(write, { sent: 'x', failed: 'Try again later' });
      const second = result.current.queue(write, { sent: 'x' });
      release();
      outcomes = await Promise.all([first, second]);
    });
    expect(outcomes).toEqual([null, null]);
    expect(write).toHaveBeenCalledTimes(1);
    expect(said()).toEqual([['Try again later', 'error']]);
  });
});
