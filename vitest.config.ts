import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';
import { TEST_TIMEOUT_MS } from './test/support/testTimeouts';

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8')) as { version: string };
const define = { __STRATA_VERSION__: JSON.stringify(pkg.version) };

/** Generous limits, in every project (a project does not inherit the root's): a test waits this long before it is called hung, whatever else runs on the machine. */
const limits = { testTimeout: TEST_TIMEOUT_MS, hookTimeout: TEST_TIMEOUT_MS };

export default defineConfig({
  test: {
    // One worker per core (vitest's default leaves one core idle: on a 2-core machine the files ran one by one).
    maxWorkers: availableParallelism(),
    projects: [
      {
        define,
        test: {
          name: 'node',
          ...limits,
          environment: 'node',
          include: ['test/unit/engine/**/*.test.ts', 'test/unit/electron/**/*.test.ts', 'test/unit/boundaries/**/*.test.ts', 'test/integration/**/*.test.ts'],
        },
      },
      {
        define,
        test: {
          name: 'renderer',
          ...limits,
          environment: 'jsdom',
          include: ['test/unit/renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['test/support/rendererSetup.ts'],
        },
      },
    ],
  },
});
