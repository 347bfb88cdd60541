import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Static first paints: for a page that has one, the server puts its markup (a file of the build, from public/) in
 * place of index.html's splash, between the `first-paint` markers. The browser draws it from the HTML alone, before
 * any script, and the app's first render replaces it. Today only /login has one (issue 14: the sign-in screen is
 * the first thing a new client sees, often on a slow phone).
 */
const firstPaintFiles: Record<string, string> = { '/login': 'first-paint-login.html' };

const marked = /<!-- first-paint -->[\s\S]*?<!-- \/first-paint -->/;

export type FirstPaints = Record<string, string>;

/** The first paints present in the build directory, read once at start. */
export function readFirstPaints(root: string): FirstPaints {
  const found: FirstPaints = {};
  for (const [pathname, file] of Object.entries(firstPaintFiles)) {
    const full = path.join(root, file);
    if (existsSync(full)) found[pathname] = readFileSync(full, 'utf8');
  }
  return found;
}

/** index.html for this URL: its path's first paint instead of the splash, or the page unchanged. */
export function withFirstPaint(indexHtml: string, url: string, paints: FirstPaints): string {
  const markup = paints[url.split(/[?#]/)[0]];
  if (markup === undefined) return indexHtml;
  return indexHtml.replace(marked, () => `<!-- first-paint -->${markup}<!-- /first-paint -->`);
}
