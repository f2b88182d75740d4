import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8')) as { version: string };
const define = { __STRATA_VERSION__: JSON.stringify(pkg.version) };

export default defineConfig({
  // Electron main, plus the headless web host and the CLI: all Node code. They share chunks; only
  // index.js imports `electron`. Target Node 20 so web.js and cli.js run on Node 20, 22 and 24.
  // replayWorker.js and liveWorker.js are the entries of the hosts' replay and live-session worker threads: a worker must start from a
  // module whose top level is the worker, which none of the other bundles is (openHost finds it).
  main: {
    define,
    build: {
      target: 'node20',
      rolldownOptions: {
        input: {
          index: resolve(import.meta.dirname, 'electron/main/index.ts'),
          web: resolve(import.meta.dirname, 'electron/web/server.ts'),
          cli: resolve(import.meta.dirname, 'electron/cli/strata.ts'),
          replayWorker: resolve(import.meta.dirname, 'engine/node/traces/replayWorker.ts'),
          liveWorker: resolve(import.meta.dirname, 'engine/node/traces/live/liveSessionThread.ts'),
        },
      },
    },
  },
  // Sandboxed preloads cannot load ES modules or require anything but `electron`: one CJS file.
  preload: {
    build: {
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(import.meta.dirname, 'electron/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      minify: true,
      rolldownOptions: { input: resolve(import.meta.dirname, 'renderer/index.html') },
    },
  },
});
