import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ChakraProvider } from '@chakra-ui/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getUiState, removeMessage, showMessage } from '../../lib/ui-state.ts';
import { messageBarSpaceVar } from '../../components/theme-tokens.ts';
import { shellSystem } from '../theme.ts';
import { MessageBar, messageExitMs } from './message-bar.tsx';

const system = shellSystem();

function renderBar() {
  return render(
    <ChakraProvider value={system}>
      <main>
        <p>Page content</p>
      </main>
      <MessageBar />
    </ChakraProvider>,
  );
}

function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

/** The positioned wrapper carries the open/closed animation state. */
function barState(element: HTMLElement) {
  return element.closest('[data-state]')?.getAttribute('data-state');
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  cleanup();
  for (const message of getUiState().messages) removeMessage(message.key);
  vi.useRealTimers();
});

describe('MessageBar', () => {
  it('hides a message on its own after 3500 ms and then drops it from the list', () => {
    renderBar();
    act(() => {
      showMessage('Refund Request Sent.');
    });
    const status = screen.getByRole('status');
    expect(status).toHaveProperty('textContent', expect.stringContaining('Refund Request Sent.'));

    advance(3499);
    expect(barState(status)).toBe('open');

    advance(1);
    expect(barState(screen.getByRole('status'))).toBe('closed');

    advance(messageExitMs);
    expect(screen.queryByRole('status')).toBeNull();
    expect(getUiState().messages).toEqual([]);
  });

  it('does not close when the user clicks elsewhere on the page', () => {
    renderBar();
    act(() => {
      showMessage('Something went wrong.', 'error');
    });
    const outside = screen.getByText('Page content');
    fireEvent.pointerDown(outside);
    fireEvent.mouseDown(outside);
    fireEvent.click(outside);
    fireEvent.pointerDown(document.body);
    fireEvent.click(document.body);
    advance(1000);

    const alert = screen.getByRole('alert');
    expect(barState(alert)).toBe('open');
    expect(getUiState().messages).toHaveLength(1);
  });

  it('closes from its close button and removes the message after the exit animation', () => {
    renderBar();
    act(() => {
      showMessage('Messgae sent successfully');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Close message' }));
    expect(barState(screen.getByRole('status'))).toBe('closed');

    advance(messageExitMs);
    expect(screen.queryByRole('status')).toBeNull();
    expect(getUiState().messages).toEqual([]);
  });

  it('honours a message duration and then shows the next queued message', () => {
    renderBar();
    act(() => {
      showMessage('first', 'info', 1000);
      showMessage('second', 'warning');
    });
    expect(screen.getByRole('status').textContent).toContain('first');

    // Two steps: the exit timer is only scheduled once React has rendered the closing state.
    advance(1000);
    advance(messageExitMs);
    const next = screen.getByRole('status');
    expect(next.textContent).toContain('second');
    expect(barState(next)).toBe('open');
  });

  it('reserves its room at the bottom of the page only while a message shows', () => {
    const reserved = () => document.documentElement.style.getPropertyValue(messageBarSpaceVar);
    renderBar();
    expect(reserved()).toBe('');
    act(() => {
      showMessage('Request submitted successfully.');
    });
    // jsdom lays nothing out: the bar's offset and height read 0, leaving the gap kept above it.
    expect(reserved()).toMatch(/^\d+px$/);

    advance(3500);
    advance(messageExitMs);
    expect(screen.queryByRole('status')).toBeNull();
    expect(reserved()).toBe('');
  });
});
