import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Static first paints: for a page that has one, the server puts its markup (a file of the build, from public/) in
 * place of index.html's splash, between the `first-paint` markers. The browser draws it from the HTML alone, before
 * any script, and the app's first render replaces it. Today only /login has one: the sign-in screen is the
 * first thing a new client sees, often on a slow phone.
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

/**
 * The boot script of a page with a first paint: it starts the app's scripts (the entry and the chunks the build
 * preloads, named in its data attributes) once the browser has presented the first paint. Lighthouse's estimate of
 * a slow phone (Lantern) counts into LCP every request that ended before the observed LCP; a fresh headless
 * Chromium's first layout takes 60–110 ms, long enough for the scripts to arrive, so fetched at once (even at low
 * priority) they made the estimated LCP 0.9–2.1 s for a card painted at 0.1 s. On a phone the card paints before
 * the scripts arrive anyway, so waiting for it costs a frame at most. The `paint` entry comes after the frame is
 * presented; a hidden tab paints nothing until shown, so it starts at once; a browser without paint timing starts
 * after the next frame. The text is constant (the names travel in data attributes) so that the Content-Security-
 * Policy allows it by one fixed hash (`bootScriptHash`), not by 'unsafe-inline'.
 */
export const bootScript =
  '(()=>{const d=document.currentScript.dataset,go=()=>{const m=document.createElement("script");m.type="module";m.crossOrigin="";m.src=d.entry;document.head.append(m);' +
  'for(const h of d.preload.split(" ").filter(Boolean)){const l=document.createElement("link");l.rel="modulepreload";l.crossOrigin="";l.href=h;document.head.append(l)}};' +
  'if(document.visibilityState==="hidden")go();' +
  'else if(PerformanceObserver.supportedEntryTypes?.includes("paint")){const o=new PerformanceObserver((l)=>{if(l.getEntries().length){o.disconnect();setTimeout(go)}});o.observe({type:"paint",buffered:true})}' +
  'else requestAnimationFrame(()=>setTimeout(go))})()';

/** The CSP source that allows `bootScript` (and only it) among inline scripts. */
export const bootScriptHash = `'sha256-${createHash('sha256').update(bootScript).digest('base64')}'`;

/**
 * The entry's watchdog, inlined in index.html before the app's scripts (vite.config.ts): when a module the entry imports
 * statically does not arrive (a dropped connection, an aborted fetch), the browser remembers the failure for the life of
 * the page and the app never starts, leaving the splash for ever. The failed fetch fires `error` at the entry's script
 * element (never for an error thrown while the code runs), and the page is then loaded again: while online or under a
 * service worker (which serves the build offline) after a wait that doubles from half a second to 30 s with each
 * failure in a row, so a failing server is not hammered; otherwise when the connection is back. It says so meanwhile.
 * A module script that arrives (`load`) resets the count. Both listen on the document in the capture phase: a `load`
 * event never reaches the window.
 */
export const entryRetryScript =
  '(()=>{const k="portal:entry-retries",m=(e)=>e.target instanceof HTMLScriptElement&&e.target.type==="module";' +
  'document.addEventListener("load",(e)=>{if(m(e))sessionStorage.removeItem(k)},true);' +
  'document.addEventListener("error",(e)=>{if(!m(e))return;' +
  'const n=Number(sessionStorage.getItem(k)||0),again=()=>{sessionStorage.setItem(k,String(n+1));location.reload()};' +
  'const h=document.querySelector("[data-first-paint] .fp-alert")||document.querySelector("#root .splash");' +
  'if(h&&!h.querySelector("[data-entry-retry]")){const p=document.createElement("span");p.dataset.entryRetry="";p.style.color="#c2410c";p.textContent="Connection lost \\u2014 we will try again";h.append(p)}' +
  'if(navigator.onLine||navigator.serviceWorker?.controller)setTimeout(again,Math.min(3e4,500*2**n));else addEventListener("online",again,{once:true})},true)})()';

/** The CSP source that allows `entryRetryScript` among inline scripts. */
export const entryRetryScriptHash = `'sha256-${createHash('sha256').update(entryRetryScript).digest('base64')}'`;

/** The app's scripts as the build writes them into index.html: the entry and the chunks it preloads. */
const entryScript = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const preloadLinks = /<link rel="modulepreload" crossorigin href="([^"]+)">/g;
const appScripts = /<(script type="module"|link rel="modulepreload") /g;

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * index.html for this URL: its path's first paint instead of the splash, or the page unchanged. With a first paint
 * the app's scripts are loaded by the boot script after the first paint (see `bootScript`); should the build's tags
 * not be found, they are only lowered to low priority.
 */
export function withFirstPaint(indexHtml: string, url: string, paints: FirstPaints): string {
  const markup = paints[url.split(/[?#]/)[0]];
  if (markup === undefined) return indexHtml;
  const page = indexHtml.replace(marked, () => `<!-- first-paint -->${markup}<!-- /first-paint -->`);
  const entry = entryScript.exec(page)?.[1];
  if (entry === undefined) return page.replace(appScripts, '<$1 fetchpriority="low" ');
  const preloads = [...page.matchAll(preloadLinks)].map((m) => m[1]);
  const boot = `<script data-entry="${attribute(entry)}" data-preload="${attribute(preloads.join(' '))}">${bootScript}</script>`;
  return page.replace(preloadLinks, '').replace(entryScript, () => boot);
}
