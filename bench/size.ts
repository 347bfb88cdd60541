// `npm run size [-- ROUTE]`: the gzipped JavaScript a route needs before it can render, from the
// production build. Default route /login.
//
//   node bench/size.ts                 # /login: entry + its modulepreloads + chunks named *login*
//   node bench/size.ts --route /       # /: entry + chunks named *index* or *dashboard*
//   node bench/size.ts settings        # any route: chunks whose file name contains its last segment
//   options: --no-build (measure dist/ as it is), --dist DIR, --json
//
// Every chunk found is followed through its static imports (dynamic import() is not followed:
// it loads later), so the total is what the browser must download for the route.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { ROOT } from '../scripts/emulator.ts';
import { distStaleReason, startBuild } from '../scripts/start.ts';

interface Args {
  route: string;
  dist: string;
  build: boolean;
  json: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { route: '/login', dist: join(ROOT, 'dist'), build: true, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--route') args.route = argv[++i] ?? '/';
    else if (a.startsWith('--route=')) args.route = a.slice('--route='.length);
    else if (a === '--dist') args.dist = resolve(argv[++i] ?? 'dist');
    else if (a === '--no-build') args.build = false;
    else if (a === '--json') args.json = true;
    else if (a === '--help' || a === '-h') {
      console.log('usage: node bench/size.ts [ROUTE | --route ROUTE] [--no-build] [--dist DIR] [--json]');
      process.exit(0);
    } else if (!a.startsWith('-')) args.route = a;
    else {
      console.error(`unknown option ${a}`);
      process.exit(2);
    }
  }
  if (!args.route.startsWith('/')) args.route = `/${args.route}`;
  return args;
}

/** File-name fragments of the lazily loaded route chunks that render `route`. */
function routeKeywords(route: string): string[] {
  const segments = route.split('/').filter((s) => s && !s.startsWith('$') && !s.startsWith(':'));
  if (segments.length === 0) return ['index', 'dashboard'];
  return [segments[segments.length - 1].toLowerCase()];
}

function listJs(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...listJs(path));
    else if (entry.endsWith('.js')) out.push(path);
  }
  return out;
}

/** `/assets/x.js` or `assets/x.js` in index.html → file in dist. */
function fromHtml(dist: string, ref: string): string {
  const clean = ref.split(/[?#]/)[0];
  return join(dist, clean.replace(/^\//, ''));
}

function attr(tag: string, name: string): string | undefined {
  return tag.match(new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i'))?.[1];
}

// import{a as b}from"./x.js" · import*as x from"./x.js" · import"./x.js" · export*from"./x.js"
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["']([^"'\n]+\.js)["']/g;

function staticImports(file: string, dist: string): string[] {
  const code = readFileSync(file, 'utf8');
  const found = new Set<string>();
  for (const m of code.matchAll(STATIC_IMPORT)) {
    const spec = m[1];
    let target: string | undefined;
    if (spec.startsWith('./') || spec.startsWith('../')) target = resolve(dirname(file), spec);
    else if (spec.startsWith('/')) target = join(dist, spec.slice(1));
    if (target && existsSync(target)) found.add(target);
  }
  return [...found];
}

type Manifest = Record<string, { file: string; isEntry?: boolean; isDynamicEntry?: boolean }>;

function loadManifest(dist: string): Manifest | undefined {
  const path = join(dist, '.vite', 'manifest.json');
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Manifest) : undefined;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * TanStack Router file routes for `route` (directory or flat notation, pathless `_layout` parts
 * allowed: /login → src/routes/login.tsx, / → src/routes/_auth/index.tsx) plus the layout route
 * files above them (src/routes/_auth.tsx, __root.tsx), as manifest keys with their chunk file.
 */
function routeChunksFromManifest(manifest: Manifest, route: string): Array<{ key: string; file: string }> {
  const segs = route.split('/').filter(Boolean);
  const pathless = '(?:_[^/.]+[/.])*';
  const body = segs.map(escapeRe).join(`[/.]${pathless}`);
  const re = segs.length
    ? new RegExp(`^src/routes/${pathless}${body}(?:\\.tsx?|[/.]index\\.tsx?)$`)
    : new RegExp(`^src/routes/${pathless}index\\.tsx?$`);
  const sourceOf = (key: string) => key.split('?')[0];
  const routeFiles = Object.keys(manifest).map(sourceOf).filter((src) => re.test(src));
  if (routeFiles.length === 0) return [];
  const wanted = new Set<string>(routeFiles);
  for (const src of routeFiles) {
    // src/routes/_auth/index.tsx → layouts src/routes/_auth.tsx and src/routes/__root.tsx
    const parts = src.slice('src/routes/'.length).split('/');
    for (let i = 1; i < parts.length; i++) {
      const dir = parts.slice(0, i).join('/');
      wanted.add(`src/routes/${dir}.tsx`);
      wanted.add(`src/routes/${dir}.ts`);
    }
    wanted.add('src/routes/__root.tsx');
  }
  return Object.entries(manifest)
    .filter(([key, v]) => wanted.has(sourceOf(key)) && v.file.endsWith('.js'))
    .map(([key, v]) => ({ key: sourceOf(key), file: v.file }));
}

export interface Row {
  file: string;
  why: string;
  bytes: number;
  gzip: number;
}

export interface SizeResult {
  route: string;
  chunks: Row[];
  totalGzip: number;
  totalRaw: number;
  cssGzip: number;
}

/** The route's JavaScript, chunk by chunk; builds first when dist/ is stale (unless `build` is false). Throws on a missing build. */
export async function measureSize(opts: Partial<Args> = {}): Promise<SizeResult> {
  const args: Args = { route: '/login', dist: join(ROOT, 'dist'), build: true, json: false, ...opts };
  const index = join(args.dist, 'index.html');
  const defaultDist = args.dist === join(ROOT, 'dist');
  if (args.build && defaultDist) {
    const reason = distStaleReason(args.dist);
    if (reason) {
      console.error(`Building the PWA first (${reason})…`);
      const code = await startBuild().exited;
      if (code !== 0) throw new Error(`the build failed (exit ${code})`);
    }
  }
  if (!existsSync(index)) {
    throw new Error(`${index} not found: run \`npm run build\` first.`);
  }

  const html = readFileSync(index, 'utf8');
  const rows = new Map<string, Row>();
  const queue: Array<{ file: string; why: string }> = [];
  const add = (file: string, why: string) => {
    if (!rows.has(file) && !queue.some((q) => q.file === file)) queue.push({ file, why });
  };

  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = attr(tag, 'src');
    if (src && /type\s*=\s*["']module["']/i.test(tag)) add(fromHtml(args.dist, src), 'entry');
  }
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const href = attr(tag, 'href');
    if (href && /rel\s*=\s*["']modulepreload["']/i.test(tag)) add(fromHtml(args.dist, href), 'modulepreload');
  }
  if (queue.length === 0) {
    throw new Error(`no module script found in ${index}`);
  }
  const entryFiles = new Set(queue.map((q) => q.file));
  const manifest = loadManifest(args.dist);
  const fromManifest = manifest ? routeChunksFromManifest(manifest, args.route) : [];
  if (fromManifest.length) {
    // Exact: the route's own source file(s) and the layouts above it, as the build recorded them.
    for (const { key, file } of fromManifest) add(join(args.dist, file), `route ${key}`);
  } else {
    // Heuristic: Vite names a lazy chunk after its module file (login.tsx → login-HASH.js).
    // Index routes are named after their directory (_auth/index.tsx → _auth-HASH.js): build with
    // `build.manifest: true` for exact results.
    if (manifest) console.error(`note: no route file for ${args.route} in the build manifest; matching chunk names instead`);
    const keywords = routeKeywords(args.route);
    for (const file of listJs(args.dist)) {
      const name = basename(file).toLowerCase();
      if (/^(sw|workbox-)/.test(name)) continue; // the service worker is not part of the page
      if (!entryFiles.has(file) && keywords.some((k) => name.includes(k))) add(file, `route chunk (*${keywords.join('*, *')}*)`);
    }
    if (queue.length === entryFiles.size) console.error(`note: no chunk named *${keywords.join('* or *')}*: the total is the entry alone`);
  }

  while (queue.length) {
    const { file, why } = queue.shift()!;
    if (rows.has(file)) continue;
    if (!existsSync(file)) {
      console.error(`warning: ${relative(args.dist, file)} is referenced but missing`);
      continue;
    }
    const buf = readFileSync(file);
    rows.set(file, { file: relative(args.dist, file), why, bytes: buf.length, gzip: gzipSync(buf, { level: 9 }).length });
    for (const dep of staticImports(file, args.dist)) add(dep, `imported by ${basename(file)}`);
  }

  const list = [...rows.values()];
  const total = list.reduce((s, r) => s + r.gzip, 0);
  const totalRaw = list.reduce((s, r) => s + r.bytes, 0);

  const css = (html.match(/<link\b[^>]*>/gi) ?? [])
    .filter((t) => /rel\s*=\s*["']stylesheet["']/i.test(t))
    .map((t) => fromHtml(args.dist, attr(t, 'href') ?? ''))
    .filter((f) => existsSync(f))
    .reduce((s, f) => s + gzipSync(readFileSync(f), { level: 9 }).length, 0);

  return { route: args.route, chunks: list, totalGzip: total, totalRaw, cssGzip: css };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  let result: SizeResult;
  try {
    result = await measureSize(args);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(1);
  }
  if (args.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const { chunks: list, totalGzip: total, totalRaw, cssGzip: css } = result;
  const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
  const width = Math.max(...list.map((r) => r.file.length), 10);
  console.log(`JavaScript needed for ${args.route} (gzip -9):\n`);
  for (const r of list) console.log(`  ${r.file.padEnd(width)}  ${kb(r.gzip).padStart(9)}  (${kb(r.bytes)} raw)  ${r.why}`);
  console.log(`\n  ${'total'.padEnd(width)}  ${kb(total).padStart(9)}  (${kb(totalRaw)} raw, ${list.length} files)`);
  if (css) console.log(`  ${'+ CSS'.padEnd(width)}  ${kb(css).padStart(9)}  (stylesheets linked by index.html, not in the total)`);
}

if (import.meta.main) await main();
