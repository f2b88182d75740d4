#!/usr/bin/env node
// `npm run typecheck`: each environment's tsconfig on its own (the pure core with neither DOM nor
// Node, Node code, the renderer with the DOM only, and the tests no environment covers), as many at
// once as the machine has cores. Each one's output is printed whole, after it ends; the exit code is
// non-zero when any of them found an error.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONFIGS = ['tsconfig.engine.json', 'tsconfig.node.json', 'tsconfig.renderer.json', 'tsconfig.tests.json'];
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function check(config) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', config, '--noEmit'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ config, code: code ?? 1, out, seconds: (Date.now() - started) / 1000 }));
  });
}

const queue = [...CONFIGS];
const results = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), CONFIGS.length) }, async () => {
    for (let c = queue.shift(); c; c = queue.shift()) {
      const r = await check(c);
      results.push(r);
      process.stdout.write(`${r.code === 0 ? 'ok  ' : 'FAIL'} ${r.config} (${r.seconds.toFixed(1)} s)\n${r.out}`);
    }
  }),
);
process.exit(results.some((r) => r.code !== 0) ? 1 : 0);
