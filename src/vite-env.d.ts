/** Injected by vite.config.ts `define`: the build's version label. */
declare const __APP_VERSION__: string;
