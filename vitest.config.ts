import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8')) as { version: string };
const define = { __STRATA_VERSION__: JSON.stringify(pkg.version) };

export default defineConfig({
  test: {
    projects: [
      {
        define,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/engine/**/*.test.ts', 'test/unit/electron/**/*.test.ts', 'test/unit/boundaries/**/*.test.ts', 'test/integration/**/*.test.ts'],
        },
      },
      {
        define,
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/unit/renderer/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
