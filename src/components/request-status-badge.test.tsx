import { ChakraProvider, createSystem, defaultConfig } from '@chakra-ui/react';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { RequestStatusBadge } from './request-status-badge.tsx';

const system = createSystem(defaultConfig);

function renderBadge(status: string) {
  render(
    <ChakraProvider value={system}>
      <RequestStatusBadge status={status} />
    </ChakraProvider>,
  );
  return screen.getByText((_, element) => element?.getAttribute('data-status') === status);
}

/** The colour palette Chakra gave the badge, read from the rule of its generated class. */
function paletteOf(element: HTMLElement): string | undefined {
  const css = [...document.querySelectorAll('style')].map((style) => style.textContent).join('\n');
  const rules = element.className.split(' ').map((name) => new RegExp(`\\.${name}\\{[^}]*--chakra-colors-color-palette-50:var\\(--chakra-colors-([a-z]+)-50\\)`).exec(css));
  return rules.find(Boolean)?.[1];
}

afterEach(cleanup);

describe('request status badge', () => {
  it('labels a known status as the spec does, coloured by stage', () => {
    const badge = renderBadge('Waiting for actions');
    expect(badge.textContent).toBe('Awaiting Payment');
    expect(paletteOf(badge)).toBe('orange');
  });

  it('shows a status this app does not know as the server wrote it, in neutral gray', () => {
    const badge = renderBadge('Escalated');
    expect(badge.textContent).toBe('Escalated');
    expect(paletteOf(badge)).toBe('gray');
  });
});
