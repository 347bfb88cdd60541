import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import { VitePWA } from 'vite-plugin-pwa';

import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { entryRetryScript } from './server/platform/first-paint.ts';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string };

/** Chakra's theme files one by one (src/app/theme.ts): its package exports only the theme's index. */
export const chakraThemeAlias = { find: /^@chakra-theme\//, replacement: fileURLToPath(new URL('./node_modules/@chakra-ui/react/dist/esm/theme/', import.meta.url)) };

/**
 * The build's stylesheet (only the font faces: Chakra styles at run time) goes into index.html as a <style>: as a
 * <link> it held the first paint until it arrived, a round trip on a slow connection (issue 14).
 */
/** The entry's watchdog (server/platform/first-paint.ts): a classic script, so it runs before the module scripts could fail. */
function entryRetry(): Plugin {
  return {
    name: 'portal:entry-retry',
    apply: 'build',
    transformIndexHtml: () => [{ tag: 'script', children: entryRetryScript, injectTo: 'head' }],
  };
}

function inlineStylesheets(): Plugin {
  return {
    name: 'portal:inline-stylesheets',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        return html.replace(/<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g, (tag, file: string) => {
          const asset = ctx.bundle?.[file];
          return asset?.type === 'asset' ? `<style>${String(asset.source)}</style>` : tag;
        });
      },
    },
  };
}

/**
 * Every dynamic import() of the build goes through Vite's preload helper with the files of the chunk's graph. This
 * replaces the helper's code by a call to the app's chunk loader (src/lib/lazy-import.ts, installed by main.tsx),
 * which fetches those files until the connection lets them through and only then imports: a module script that
 * failed to arrive stays failed for the life of the page, a plain fetch that failed leaves nothing behind
 * (docs/decisions/026-lazy-load-retry.md). The build fails if the helper's chunk holds anything else.
 */
const PRELOAD_HELPER_ID = '\0vite/preload-helper.js';
function retryingPreloadHelper(): Plugin {
  let base = '/';
  return {
    name: 'portal:retrying-preload-helper',
    apply: 'build',
    configResolved(config) {
      base = config.base;
    },
    generateBundle(_options, bundle) {
      const helpers = Object.values(bundle).filter((c) => c.type === 'chunk' && c.moduleIds.includes(PRELOAD_HELPER_ID));
      for (const chunk of helpers) {
        if (chunk.type !== 'chunk') continue;
        if (chunk.moduleIds.length !== 1 || chunk.exports.length !== 1) {
          this.error(`the preload helper shares ${chunk.fileName} with other code (${chunk.moduleIds.join(', ')}): it cannot be replaced whole`);
        }
        chunk.code = [
          `const base = ${JSON.stringify(base)};`,
          'function preload(load, deps) {',
          '  const files = (deps || []).map((dep) => new URL(base + dep, location.href).href);',
          '  for (const href of files) {',
          "    if (!href.endsWith('.css') || document.querySelector(`link[rel=\"stylesheet\"][href=\"${href}\"]`)) continue;",
          "    const link = document.createElement('link');",
          "    link.rel = 'stylesheet';",
          '    link.href = href;',
          '    document.head.appendChild(link);',
          '  }',
          '  const loadChunk = globalThis.__portalLoadChunk;',
          "  return loadChunk ? loadChunk(load, files.filter((href) => !href.endsWith('.css'))) : load();",
          '}',
          `export { preload as ${chunk.exports[0]} };`,
          '',
        ].join('\n');
        chunk.map = null;
        delete bundle[`${chunk.fileName}.map`];
      }
      if (helpers.length === 0) this.warn('no preload helper in the bundle: dynamic imports are not retried');
      // A failed import retried under a fresh URL hands back the chunk's own exports: Vite's wrappers that pick
      // named exports (`let{a:e}=await import(…);return{a:e}`) must keep their names, or the caller would read
      // nothing from the retried module.
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue;
        for (const m of chunk.code.matchAll(/let\{([^}]*)\}=await import\(`([^`]*)`\);return\{([^}]*)\}/g)) {
          const names = (list: string) => list.split(',').map((pair) => pair.split(':')[0].trim());
          if (names(m[1]).join() !== names(m[3]).join()) this.error(`${chunk.fileName}: the import of ${m[2]} renames its exports; a retried import would not fit`);
        }
      }
    },
  };
}

/** Files worth compressing (fonts and images are compressed already). */
const COMPRESSIBLE = /\.(js|css|svg|json)$/;

/**
 * Every hashed asset also written brotli'd (quality 11) and gzipped (level 9) beside itself, once at build time: the
 * server sends those as they are (@fastify/static's preCompressed) instead of compressing each asset on every request,
 * which cost the API process CPU on every first visit (the service worker fetches all of them) and gave larger files
 * (brotli 4, the on-the-fly setting). Only `assets/`: its files never change after the build, whereas sw.js is written
 * later by the PWA plugin and stays compressed on the fly (docs/decisions/020).
 */
function precompressAssets(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  return {
    name: 'portal:precompress-assets',
    apply: 'build',
    async writeBundle(options, bundle) {
      const files = Object.keys(bundle).filter((name) => name.startsWith('assets/') && COMPRESSIBLE.test(name));
      await Promise.all(
        files.map(async (name) => {
          // The file as written, so that its compressed copies are byte for byte the same file.
          const path = join(options.dir!, name);
          const source = await readFile(path);
          if (source.length < 1024) return;
          const params = { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: source.length };
          await writeFile(`${path}.br`, await brotli(source, { params }));
          await writeFile(`${path}.gz`, await gzipped(source, { level: 9 }));
        }),
      );
    },
  };
}

export default defineConfig({
  // Shown in the footer, so support (and the update test) can tell which build a device runs.
  define: { __APP_VERSION__: JSON.stringify(process.env.APP_VERSION ?? pkg.version) },
  plugins: [
    tanstackRouter({ target: 'react', autoCodeSplitting: true, routesDirectory: 'src/routes', generatedRouteTree: 'src/route-tree.gen.ts' }),
    react(),
    inlineStylesheets(),
    entryRetry(),
    retryingPreloadHelper(),
    precompressAssets(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      injectManifest: { globPatterns: ['**/*.{js,css,html,woff2,svg,png,ico}'], maximumFileSizeToCacheInBytes: 4 * 1024 * 1024 },
      manifest: {
        name: 'Fraud Recovery Portal',
        short_name: 'Recovery',
        description: 'Order investigation and recovery services, follow your requests and talk to support.',
        theme_color: '#5D87FF',
        background_color: '#ffffff',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          ...[48, 72, 96, 128, 144, 152, 192, 256, 384, 512].map((size) => ({ src: `/icons/icon-${size}.png`, sizes: `${size}x${size}`, type: 'image/png' })),
          { src: '/icons/icon-maskable-192.png', sizes: '192x192', type: 'image/png', purpose: 'maskable' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
    }),
  ],
  resolve: { alias: [chakraThemeAlias] },
  server: { port: 5173, proxy: { '/api': `http://localhost:${process.env.API_PORT ?? 8080}` } },
  // The manifest lets bench/size.ts find exactly the chunks each route loads.
  build: {
    target: 'es2022',
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      // Chakra builds its default theme and system at module level through these identity-like helpers; marked
      // pure, the recipes the portal does not use (src/app/theme.ts) are left out of the bundle.
      treeshake: { manualPureFunctions: ['defineConfig', 'defineRecipe', 'defineSlotRecipe', 'defineTokens', 'defineSemanticTokens', 'createSystem', 'mergeConfigs'] },
      output: {
        // A few vendor chunks instead of dozens of tiny shared ones: on a slow mobile connection each
        // extra file costs a round trip before the first screen.
        codeSplitting: {
          groups: [
            // Alone in its file, so retryingPreloadHelper can replace its code whole.
            { name: 'preload-helper', test: (id: string) => id === PRELOAD_HELPER_ID, priority: 100 },
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            // Only what the first screen needs goes in this chunk: a module the first screen's code can reach, not the rest.
            { name: 'ui', tags: ['$initial'], test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@floating-ui|@pandacss|stylis|@internationalized|proxy-compare|lucide-react)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'firebase', test: /node_modules[\\/](firebase|@firebase|idb)[\\/]/ },
          ],
        },
      },
    },
  },
});
