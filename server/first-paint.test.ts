import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFirstPaints, withFirstPaint } from './first-paint.ts';

const scripts = '<script type="module" crossorigin src="/assets/index.js"></script><link rel="modulepreload" crossorigin href="/assets/react.js">';
const index = `<div id="root"><!-- first-paint --><div class="splash">…</div><!-- /first-paint --></div>${scripts}`;
const paints = { '/login': '<main data-first-paint="login">Sign In $& $1</main>' };

describe('withFirstPaint', () => {
  it("puts /login's first paint in place of the splash, query string or not, and keeps the rest", () => {
    for (const url of ['/login', '/login?redirect=%2F']) {
      const html = withFirstPaint(index, url, paints);
      expect(html).toBe(
        '<div id="root"><!-- first-paint --><main data-first-paint="login">Sign In $& $1</main><!-- /first-paint --></div>' +
          '<script type="module" fetchpriority="low" crossorigin src="/assets/index.js"></script><link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/react.js">',
      );
    }
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
