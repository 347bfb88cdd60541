import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootScript, bootScriptHash, readFirstPaints, withFirstPaint } from './first-paint.ts';

const scripts =
  '<script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/react.js"><link rel="modulepreload" crossorigin href="/assets/ui.js">';
const index = `<div id="root"><!-- first-paint --><div class="splash">…</div><!-- /first-paint --></div>${scripts}`;
const paints = { '/login': '<main data-first-paint="login">Sign In $& $1</main>' };

describe('withFirstPaint', () => {
  it("puts /login's first paint in place of the splash, query string or not, and its scripts behind the boot script", () => {
    for (const url of ['/login', '/login?redirect=%2F']) {
      const html = withFirstPaint(index, url, paints);
      expect(html).toBe(
        '<div id="root"><!-- first-paint --><main data-first-paint="login">Sign In $& $1</main><!-- /first-paint --></div>' +
          `<script data-entry="/assets/index.js" data-preload="/assets/react.js /assets/ui.js">${bootScript}</script>`,
      );
    }
  });

  it('only lowers the priority of scripts it does not recognise as the build wrote them', () => {
    const other = '<div id="root"><!-- first-paint --><!-- /first-paint --></div><script type="module" src="/x.js"></script>';
    expect(withFirstPaint(other, '/login', paints)).toBe(
      '<div id="root"><!-- first-paint --><main data-first-paint="login">Sign In $& $1</main><!-- /first-paint --></div><script type="module" fetchpriority="low" src="/x.js"></script>',
    );
  });

  it('leaves every other page with the splash and its scripts at their usual priority', () => {
    for (const url of ['/', '/login/extra', '/tool/track-master', '/loginx']) expect(withFirstPaint(index, url, paints)).toBe(index);
  });
});

describe('readFirstPaints', () => {
  it('reads the files the build has, and none it lacks', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'first-paint-'));
    expect(readFirstPaints(dir)).toEqual({});
    writeFileSync(path.join(dir, 'first-paint-login.html'), '<main>frame</main>');
    expect(readFirstPaints(dir)).toEqual({ '/login': '<main>frame</main>' });
  });
});

describe('bootScript', () => {
  it('is allowed by its CSP hash', () => {
    expect(bootScriptHash).toBe(`'sha256-${createHash('sha256').update(bootScript).digest('base64')}'`);
  });

  it('starts the entry and its preloads only once the first paint is reported', () => {
    const appended: { tag: string; props: Record<string, string> }[] = [];
    let observer: ((list: { getEntries(): unknown[] }) => void) | undefined;
    let timer: (() => void) | undefined;
    const element = (tag: string) => ({ tag, props: {} as Record<string, string> });
    const document = {
      currentScript: { dataset: { entry: '/assets/index.js', preload: '/assets/react.js /assets/ui.js' } },
      visibilityState: 'visible',
      createElement: (tag: string) => new Proxy(element(tag), { set: (t, k, v) => ((t.props[k as string] = v as string), true) }),
      head: { append: (e: { tag: string; props: Record<string, string> }) => appended.push(e) },
    };
    class PerformanceObserver {
      static supportedEntryTypes = ['paint'];
      constructor(cb: (list: { getEntries(): unknown[] }) => void) {
        observer = cb;
      }
      observe() {}
      disconnect() {}
    }
    new Function('document', 'PerformanceObserver', 'setTimeout', 'requestAnimationFrame', bootScript)(document, PerformanceObserver, (f: () => void) => (timer = f), () => {
      throw new Error('not used with paint timing');
    });
    expect(appended).toEqual([]);
    observer!({ getEntries: () => [] });
    expect(timer).toBeUndefined();
    observer!({ getEntries: () => [{ name: 'first-paint' }] });
    expect(appended).toEqual([]);
    timer!();
    expect(appended).toEqual([
      { tag: 'script', props: { type: 'module', crossOrigin: '', src: '/assets/index.js' } },
      { tag: 'link', props: { rel: 'modulepreload', crossOrigin: '', href: '/assets/react.js' } },
      { tag: 'link', props: { rel: 'modulepreload', crossOrigin: '', href: '/assets/ui.js' } },
    ]);
  });
});
