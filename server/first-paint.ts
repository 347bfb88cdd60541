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

/** The app's scripts as the build writes them into index.html: the entry and the chunks it preloads. */
const appScripts = /<(script type="module"|link rel="modulepreload") /g;

/**
 * index.html for this URL: its path's first paint instead of the splash, or the page unchanged. With a first paint
 * the app's scripts are fetched at low priority: the page draws without them, and at high priority they count as
 * what the first paint waits for (Lighthouse's estimate of a slow phone counts every high-priority script that had
 * arrived by the first paint; a fresh browser's first layout can take long enough for all of them to arrive).
 */
export function withFirstPaint(indexHtml: string, url: string, paints: FirstPaints): string {
  const markup = paints[url.split(/[?#]/)[0]];
  if (markup === undefined) return indexHtml;
  return indexHtml.replace(marked, () => `<!-- first-paint -->${markup}<!-- /first-paint -->`).replace(appScripts, '<$1 fetchpriority="low" ');
}
