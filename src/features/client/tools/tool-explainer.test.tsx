import { ChakraProvider, defaultSystem } from '@chakra-ui/react';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { explainerVideoUrl, type ToolDefinition, tools } from '../../../../domain/tools.ts';
import { Explainer } from './tool-explainer.tsx';

afterEach(cleanup);

const show = (tool: ToolDefinition) =>
  render(
    <ChakraProvider value={defaultSystem}>
      <Explainer tool={tool} />
    </ChakraProvider>,
  );

const withVideo = (url: string | null): ToolDefinition => ({ ...tools[0], videoUrl: url });

describe('explainerVideoUrl: what counts as a configured video', () => {
  it.each([
    [null, null],
    ['', null],
    ['   ', null],
    // The catalogue's old placeholders: an embed address without a video id.
    ['https://www.youtube-nocookie.com/embed/track-master', null],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', null],
    ['http://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', null],
    ['https://evil.example/embed/dQw4w9WgXcQ', null],
    ['https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ', 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ'],
  ])('%j → %j', (url, expected) => {
    expect(explainerVideoUrl({ videoUrl: url })).toBe(expected);
  });

  it('no tool of the catalogue has a video yet, and each has three steps of its own', () => {
    for (const tool of tools) expect(explainerVideoUrl(tool)).toBeNull();
    const texts = tools.flatMap((tool) => tool.steps.map((step) => step.text));
    expect(new Set(texts).size).toBe(texts.length);
  });
});

describe('Explainer', () => {
  it.each(tools.map((tool) => [tool.header, tool] as const))('%s without a video: its three steps in order, and no frame', (_name, tool) => {
    const { container } = show(tool);
    const section = screen.getByRole('region', { name: `How ${tool.header} works` });
    const steps = within(section).getAllByRole('listitem');
    expect(steps).toHaveLength(3);
    // The drawn number is hidden from screen readers; they hear "Step n:" before the title.
    tool.steps.forEach((step, i) => expect(steps[i].textContent).toBe(`${i + 1}Step ${i + 1}: ${step.title}${step.text}`));
    expect(container.querySelector('iframe')).toBeNull();
  });

  it('with a video: a poster and a play button; the frame is made only when the button is pressed', () => {
    const url = 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ';
    const { container } = show(withVideo(url));
    expect(screen.queryByRole('region')).toBeNull();
    expect(container.querySelector('iframe')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Play the Track Master video' }));
    const frame = container.querySelector('iframe');
    expect(frame?.getAttribute('src')).toBe(`${url}?autoplay=1`);
    expect(frame?.getAttribute('title')).toBe('Track Master explainer video');
  });

  it('with a placeholder address: the steps, not a broken frame', () => {
    const { container } = show(withVideo('https://www.youtube-nocookie.com/embed/track-master'));
    expect(screen.getByTestId('how-it-works')).toBeTruthy();
    expect(container.querySelector('iframe')).toBeNull();
  });
});
