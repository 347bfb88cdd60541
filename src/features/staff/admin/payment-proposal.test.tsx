import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusinessSettings, PaymentDetailsProposal } from '../../../../domain/business-settings.ts';
import type { PortalDb } from '../../../lib/db.ts';
import { ReplicaContext } from '../../../lib/replica.ts';
import { withReplica } from '../../../lib/test-kit.ts';
import { getUiState, removeMessage } from '../../../lib/ui-state.ts';

vi.mock('@tanstack/react-router', () => ({ useNavigate: () => vi.fn(), Link: ({ to, children }: { to: string; children: ReactNode }) => <a href={to}>{children}</a> }));
vi.mock('../../../lib/firebase.ts', () => ({ signOut: vi.fn() }));
const apiRequest = vi.fn();
vi.mock('../../../lib/api.ts', async (orig) => ({ ...(await orig<typeof import('../../../lib/api.ts')>()), apiRequest: (...a: unknown[]) => apiRequest(...a) }));

const { PendingProposal } = await import('./payment-proposal.tsx');

const system = createSystem(defaultConfig);
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

const current: BusinessSettings = {
  id: 'business',
  accountHolder: 'Demo Recovery Ltd',
  bankName: 'Example Bank',
  accountNumber: 'GB33 BUKB 2020 1555 5555 55',
  bic: 'BUKBGB22',
  paymentNote: '',
  officialEmails: [],
  officialDomains: [],
  officialPhones: [],
  version: 3,
  updatedAt: '2026-11-27T10:00:00.000Z',
  paymentDetailsChangedAt: null,
};
const proposal: PaymentDetailsProposal = {
  id: '00000000-0000-4000-8000-00000000000a',
  status: 'pending',
  proposedBy: { uid: 'alice', email: 'alice@demo.test' },
  proposedAt: '2026-11-27T10:00:00.000Z',
  before: { accountHolder: current.accountHolder, bankName: current.bankName, accountNumber: current.accountNumber, bic: current.bic },
  after: { accountHolder: current.accountHolder, bankName: 'Harbour Bank', accountNumber: 'GB94 BARC 1020 1530 0934 59', bic: current.bic },
  decidedBy: null,
  decidedAt: null,
};

describe('PendingProposal', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));
  beforeEach(() => apiRequest.mockReset());
  afterEach(() => {
    cleanup();
    for (const m of getUiState().messages) removeMessage(m.key);
  });

  const show = (myUid: string, admins: number, onDecided = vi.fn()) =>
    render(
      <ChakraProvider value={system}>
        <ReplicaContext.Provider value={db}>
          <PendingProposal proposal={proposal} admins={admins} current={current} myUid={myUid} onDecided={onDecided} />
        </ReplicaContext.Provider>
      </ChakraProvider>,
    );

  it('shows the proposer old and new, Withdraw only, and with one admin says plainly that the change waits', () => {
    show('alice', 1);
    expect(screen.getByTestId('proposal-accountNumber').textContent).toBe('IBAN / account number (changes)Now: GB33 BUKB 2020 1555 5555 55New: GB94 BARC 1020 1530 0934 59');
    expect(screen.getByTestId('proposal-bic').textContent).toBe('BIC / SWIFT (unchanged)BUKBGB22');
    expect(screen.getByTestId('single-admin').textContent).toBe('Only one admin: a second admin must approve this change before clients see it. Add an admin in Team.');
    expect(screen.getByRole('link', { name: 'Add an admin in Team.' }).getAttribute('href')).toBe('/staff/team');
    expect(screen.getByRole('button', { name: 'Withdraw' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('offers another admin Approve and Reject; approving sends a keyed POST and keeps the new settings on the device', async () => {
    const onDecided = vi.fn();
    const approved = { ...current, ...proposal.after, version: 4, paymentDetailsChangedAt: '2026-11-27T11:00:00.000Z' };
    apiRequest.mockResolvedValue(json(200, { data: { settings: approved, proposal: { ...proposal, status: 'approved' } } }));
    show('bob', 2, onDecided);
    expect(screen.queryByTestId('single-admin')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Withdraw' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Reject' })).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Approve' })));
    const [path, options] = apiRequest.mock.calls[0] as [string, { method: string; headers: Record<string, string> }];
    expect(path).toBe(`/staff/business-settings/proposals/${proposal.id}/approve`);
    expect(options.method).toBe('POST');
    expect(options.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await db.businessSettings.get('business')).toEqual(approved);
    expect(onDecided).toHaveBeenCalled();
    expect(getUiState().messages.map((m) => m.message)).toContain('New payment details approved. Clients see them now, with a notice that they changed.');
  });
});
