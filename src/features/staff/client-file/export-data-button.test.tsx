import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PortalDb } from '../../../lib/db.ts';
import { ReplicaContext } from '../../../lib/replica.ts';
import { getStepUpQuestion, registerStepUpDialog } from '../../../lib/session-signals.ts';
import { clientFile, withReplica } from '../../../lib/test-kit.ts';
import { getUiState, removeMessage } from '../../../lib/ui-state.ts';

vi.mock('@tanstack/react-router', () => ({
  Link: ({ children, to, params: _params, ...rest }: { children: ReactNode; to: string; params?: unknown }) => (
    <a href={to} {...rest}>
      {children}
    </a>
  ),
}));
const apiGet = vi.fn();
const apiRequest = vi.fn();
vi.mock('../../../lib/api.ts', async (orig) => ({
  ...(await orig<typeof import('../../../lib/api.ts')>()),
  apiGet: (...a: unknown[]) => apiGet(...a),
  apiRequest: (...a: unknown[]) => apiRequest(...a),
}));

const { ClientFilePage } = await import('./client-file-page.tsx');

const system = createSystem(defaultConfig);
const messages = () => getUiState().messages.map((m) => m.message);
const EXPORT_PATH = '/staff/clients/ana/export';
const FILE_NAME = 'client-ana-export-2026-01-02.json';

const exported = () =>
  new Response(JSON.stringify({ exportedAt: '2026-01-02T10:00:00.000Z', client: { uid: 'ana' } }), {
    status: 200,
    headers: { 'content-type': 'application/json', 'content-disposition': `attachment; filename="${FILE_NAME}"` },
  });
const refused = (status: number, code: string, message: string) => new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json' } });

let db: PortalDb;
withReplica((opened) => (db = opened), () => 'staff-export-test');
/** The names of the files the page handed to the browser. */
let saved: string[];
beforeEach(() => {
  apiGet.mockReset();
  apiRequest.mockReset();
  apiGet.mockResolvedValue(clientFile('ana'));
  saved = [];
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:export');
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  for (const m of getUiState().messages) removeMessage(m.key);
});

async function openSection() {
  render(
    <ChakraProvider value={system}>
      <ReplicaContext.Provider value={db}>
        <ClientFilePage uid="ana" />
      </ReplicaContext.Provider>
    </ChakraProvider>,
  );
  const section = await screen.findByRole('region', { name: 'Client data' });
  within(section).getByRole('button', { name: 'Export client data' });
  // The section's one button; while it runs its text is the progress ("Exporting…").
  return { section, button: () => within(section).getByRole('button') as HTMLButtonElement };
}

describe('Export client data', () => {
  it('downloads the JSON file the server names, showing progress while it runs', async () => {
    let answer: (res: Response) => void = () => undefined;
    apiRequest.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    const { section, button } = await openSection();
    await act(async () => fireEvent.click(button()));
    expect(apiRequest).toHaveBeenCalledWith(EXPORT_PATH);
    expect(button().disabled).toBe(true);
    expect(within(section).getByText('Exporting…')).toBeTruthy();
    await act(async () => answer(exported()));
    await waitFor(() => expect(saved).toEqual([FILE_NAME]));
    expect(button().disabled).toBe(false);
    expect(messages()).toContain("Casey Client's data is downloaded.");
  });

  it('asks for the second factor again on 403 STEP_UP_REQUIRED and sends once more; cancelled, it sends nothing more', async () => {
    const unregister = registerStepUpDialog();
    try {
      apiRequest.mockResolvedValueOnce(refused(403, 'STEP_UP_REQUIRED', 'Confirm it is you.')).mockResolvedValueOnce(exported());
      const { button } = await openSection();
      await act(async () => fireEvent.click(button()));
      await waitFor(() => expect(getStepUpQuestion()).not.toBeNull());
      await act(async () => getStepUpQuestion()?.answer(true));
      await waitFor(() => expect(saved).toEqual([FILE_NAME]));
      expect(apiRequest.mock.calls).toEqual([[EXPORT_PATH], [EXPORT_PATH]]);

      apiRequest.mockResolvedValueOnce(refused(403, 'STEP_UP_REQUIRED', 'Confirm it is you.'));
      await act(async () => fireEvent.click(button()));
      await waitFor(() => expect(getStepUpQuestion()).not.toBeNull());
      await act(async () => getStepUpQuestion()?.answer(false));
      await waitFor(() => expect(button().disabled).toBe(false));
      expect(apiRequest).toHaveBeenCalledTimes(3);
      expect(saved).toEqual([FILE_NAME]);
      expect(screen.queryByRole('alert')).toBeNull();
    } finally {
      unregister();
    }
  });

  it("says why it failed in the server's words, and can be tried again", async () => {
    apiRequest.mockResolvedValueOnce(refused(404, 'NOT_FOUND', 'Client ana not found')).mockResolvedValueOnce(exported());
    const { section, button } = await openSection();
    await act(async () => fireEvent.click(button()));
    expect((await within(section).findByRole('alert')).textContent).toBe('The export failed: Client ana not found');
    expect(button().disabled).toBe(false);
    await act(async () => fireEvent.click(button()));
    await waitFor(() => expect(saved).toEqual([FILE_NAME]));
    expect(within(section).queryByRole('alert')).toBeNull();
  });

  it('is disabled offline, saying so', async () => {
    const { section, button } = await openSection();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await act(async () => window.dispatchEvent(new Event('offline')));
    expect(button().disabled).toBe(true);
    expect(within(section).getByText('You are offline')).toBeTruthy();
    expect(apiRequest).not.toHaveBeenCalled();
  });
});
