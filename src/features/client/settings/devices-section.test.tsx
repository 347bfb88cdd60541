import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSessionSignals, resetSessionSignals } from '../../../lib/session-signals.ts';
import { getUiState } from '../../../lib/ui-state.ts';

const security = vi.hoisted(() => ({
  fetchSessions: vi.fn(),
  signOutSession: vi.fn(),
  signOutOtherSessions: vi.fn(),
  signOutEverywhere: vi.fn(),
}));
vi.mock('../../../lib/security.ts', () => security);

const { DevicesSection } = await import('./devices-section.tsx');

const device = (id: string, current: boolean) => ({ id, browser: 'Chrome', os: current ? 'Android' : 'Windows', place: null, firstSeenAt: '2026-11-30T10:00:00.000Z', lastSeenAt: '2026-12-01T10:00:00.000Z', current });

beforeEach(() => {
  resetSessionSignals();
  security.fetchSessions.mockResolvedValue([device('here', true), device('there', false)]);
  security.signOutEverywhere.mockResolvedValue(undefined);
  security.signOutOtherSessions.mockResolvedValue(undefined);
});
afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  resetSessionSignals();
});

function renderSection() {
  render(
    <ChakraProvider value={defaultSystem}>
      <DevicesSection />
    </ChakraProvider>,
  );
}

describe('Settings → Security, the devices', () => {
  it('signs out every device, this one too, once confirmed: the app then ends this session as the server did', async () => {
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out all devices' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign out all devices?' });
    expect(security.signOutEverywhere).not.toHaveBeenCalled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Yes, sign out everywhere' }));
    await waitFor(() => expect(getSessionSignals().ended).toBe('signed-out-everywhere'));
    expect(security.signOutEverywhere).toHaveBeenCalledOnce();
    expect(security.signOutOtherSessions).not.toHaveBeenCalled();
  });

  it('keeps this session when the server refuses, and says why', async () => {
    security.signOutEverywhere.mockRejectedValue(new Error('The server could not sign out your devices.'));
    renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Sign out all devices' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Sign out all devices?' })).getByRole('button', { name: 'Yes, sign out everywhere' }));
    await waitFor(() => expect(security.signOutEverywhere).toHaveBeenCalledOnce());
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Sign out all devices?' })).toBeNull());
    expect(getSessionSignals().ended).toBeNull();
    expect(getUiState().messages.map((m) => [m.severity, m.message])).toContainEqual(['error', 'The server could not sign out your devices.']);
  });
});
