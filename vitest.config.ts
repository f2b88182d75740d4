import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { TEST_TIMEOUT_MS } from './test/support/testTimeouts.mjs';

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8')) as { version: string };
const define = { __STRATA_VERSION__: JSON.stringify(pkg.version) };

/**
 * One test project. Every project gets the suite's generous limits here (a project does not inherit
 * the root's): a test waits this long before it is called hung, whatever else runs on the machine.
 */
function project(name: string, environment: 'node' | 'jsdom', include: string[], setupFiles: string[] = []): TestProjectInlineConfiguration {
  return { define, test: { name, environment, include, setupFiles, testTimeout: TEST_TIMEOUT_MS, hookTimeout: TEST_TIMEOUT_MS } };
}

export default defineConfig({
  test: {
    // One worker per core (vitest's default leaves one core idle: on a 2-core machine the files ran one by one).
    maxWorkers: availableParallelism(),
    projects: [
      project('node', 'node', ['test/unit/engine/**/*.test.ts', 'test/unit/electron/**/*.test.ts', 'test/unit/boundaries/**/*.test.ts', 'test/integration/**/*.test.ts']),
      // Components (.tsx) render into jsdom. Loading jsdom costs each file 1-3 s, so the renderer's
      // logic tests (.ts: store, selectors, controllers, bridges) run in plain Node; one that needs a
      // DOM says so on its first line: `// @vitest-environment jsdom`.
      project('renderer', 'jsdom', ['test/unit/renderer/**/*.test.tsx'], ['test/support/rendererSetup.ts']),
      project('renderer-logic', 'node', ['test/unit/renderer/**/*.test.ts']),
    ],
  },
});
