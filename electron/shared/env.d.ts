/** Strata's version from package.json, injected at build time by electron.vite.config.ts and vitest.config.ts. */
declare const __STRATA_VERSION__: string;
