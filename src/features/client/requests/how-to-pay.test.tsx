import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BusinessSettings } from '../../../../domain/business-settings.ts';
import { PortalDb } from '../../../lib/db.ts';
import { localRequest, withReplica } from '../../../lib/test-kit.ts';
import { ReplicaContext } from '../../../lib/replica.ts';
import { HowToPayDialog } from './how-to-pay-dialog.tsx';
import { needsPayment, proFormaSections } from './how-to-pay.ts';

const awaiting = localRequest('r1', { refNo: 42, Created_Time: '2026-11-01T10:00:00.000Z', status: 'Waiting for actions', totalAmount: 450, paid: 200, leftToPay: 250, updatedAt: '2026-11-01T10:00:00.000Z' });

const settings: BusinessSettings = {
  id: 'business',
  accountHolder: 'Demo Recovery Ltd',
  bankName: 'Example Bank',
  accountNumber: 'GB33 BUKB 2020 1555 5555 55',
  bic: '',
  paymentNote: 'Quote the reference.',
  officialEmails: ['support@demo.test'],
  officialDomains: ['demo.test'],
  officialPhones: [],
  version: 1,
  updatedAt: '2026-11-01T10:00:00.000Z',
  paymentDetailsChangedAt: null,
};

describe('needsPayment', () => {
  it('is true only for an Awaiting Payment request with money left that the server has', () => {
    expect(needsPayment(awaiting)).toBe(true);
    expect(needsPayment({ ...awaiting, leftToPay: 0 })).toBe(false);
    expect(needsPayment({ ...awaiting, leftToPay: null })).toBe(false);
    expect(needsPayment({ ...awaiting, status: 'In Progress' })).toBe(false);
    expect(needsPayment({ ...awaiting, pending: true })).toBe(false);
  });
});

describe('proFormaSections', () => {
  it('names the reference, the amount left and the bank details, leaving out an empty BIC', () => {
    const text = proFormaSections(awaiting, settings, null, new Date('2026-11-25T12:00:00Z'))
      .flatMap((s) => [s.heading, ...s.lines.flat()])
      .join('\n');
    expect(text).toContain('Reference: TM-0042');
    expect(text).toContain('Amount left to pay: $250.00');
    expect(text).toContain('IBAN / account number: GB33 BUKB 2020 1555 5555 55');
    expect(text).toContain('Payment reference to quote: TM-0042');
    expect(text).not.toContain('BIC');
    expect(text).toContain('Our email addresses: support@demo.test');
  });
});

describe('HowToPayDialog', () => {
  let db: PortalDb;
  withReplica((opened) => (db = opened));
  beforeEach(async () => {
    await db.requests.put(awaiting);
  });
  afterEach(async () => {
    cleanup();
  });

  function show(ui: ReactNode) {
    const root = createRootRoute({ component: () => ui });
    const router = createRouter({ routeTree: root, history: createMemoryHistory() });
    render(
      <ChakraProvider value={defaultSystem}>
        <ReplicaContext.Provider value={db}>
          <RouterProvider router={router} />
        </ReplicaContext.Provider>
      </ChakraProvider>,
    );
  }

  it('says payment details are not configured yet, with the way to support, never an empty box', async () => {
    show(<HowToPayDialog request={awaiting} onClose={() => undefined} />);
    expect((await screen.findByTestId('payment-not-configured')).textContent).toContain('Payment details are not configured yet');
    expect(screen.getByRole('link', { name: 'Contact Support' }).getAttribute('href')).toBe('/contact-us');
    expect(screen.getByTestId('how-to-pay-amount').textContent).toContain('$250.00');
    expect(screen.queryByRole('button', { name: 'Download pro-forma invoice' })).toBeNull();
  });

  it('shows the settings when they arrive, and closes itself once the payment clears the request', async () => {
    const onClose = vi.fn();
    show(<HowToPayDialog request={awaiting} onClose={onClose} />);
    await screen.findByTestId('payment-not-configured');
    await db.businessSettings.put(settings);
    expect((await screen.findByTestId('payment-details')).textContent).toContain('GB33 BUKB 2020 1555 5555 55');
    expect(screen.getByTestId('how-to-pay-ref').textContent).toContain('TM-0042');
    expect(onClose).not.toHaveBeenCalled();
    await db.requests.put({ ...awaiting, paid: 450, leftToPay: 0 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('warns that the payment details changed, with the day, while the change is recent, and not otherwise', async () => {
    await db.businessSettings.put(settings);
    show(<HowToPayDialog request={awaiting} onClose={() => undefined} />);
    await screen.findByTestId('payment-details');
    expect(screen.queryByTestId('payment-details-changed')).toBeNull();
    const changedAt = new Date(Date.now() - 3 * 24 * 3600 * 1000);
    await db.businessSettings.put({ ...settings, paymentDetailsChangedAt: changedAt.toISOString() });
    const day = `${String(changedAt.getDate()).padStart(2, '0')}/${String(changedAt.getMonth() + 1).padStart(2, '0')}/${changedAt.getFullYear()}`;
    expect((await screen.findByTestId('payment-details-changed')).textContent).toBe(`Payment details changed on ${day} — check with us before paying`);
    await db.businessSettings.put({ ...settings, paymentDetailsChangedAt: new Date(Date.now() - 15 * 24 * 3600 * 1000).toISOString() });
    await waitFor(() => expect(screen.queryByTestId('payment-details-changed')).toBeNull());
  });
});
