#!/usr/bin/env node
// File-level import cycles under a folder, type-only imports included (a cycle of types is still a
// knot to untie when a file moves). Prints each group of files that import one another round.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { importsOf } from './checkBoundaries.mjs';

const SOURCE = /\.(ts|tsx|mts|cts)$/;

function* walk(dir) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts')) yield full;
  }
}

/** The file a relative import names, or undefined (a package, or a file that does not exist). */
function resolveFile(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * The groups of files under `dir` that import one another in a cycle (strongly connected
 * components of the import graph, imports leaving `dir` ignored), each sorted, as paths relative
 * to `root`; [] when the folder has no cycle.
 */
export function importCycles(root, dir) {
  const files = [...walk(resolve(root, dir))];
  const inside = new Set(files);
  const edges = new Map(files.map((f) => [f, [...new Set(importsOf(f, readFileSync(f, 'utf8')).map((i) => resolveFile(f, i.spec)).filter((t) => t !== undefined && inside.has(t)))]]));
  // Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const groups = [];
  let next = 0;
  for (const start of files) {
    if (index.has(start)) continue;
    const work = [[start, 0]];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1];
      const [v, i] = top;
      const out = edges.get(v);
      if (i < out.length) {
        top[1] = i + 1;
        const w = out[i];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push([w, 0]);
        } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(v)));
      }
      if (low.get(v) === index.get(v)) {
        const group = [];
        let w;
        do {
          w = stack.pop();
          onStack.delete(w);
          group.push(w);
        } while (w !== v);
        if (group.length > 1 || edges.get(v).includes(v)) groups.push(group.map((f) => relative(root, f).split(sep).join('/')).sort());
      }
    }
  }
  return groups.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
  const dir = process.argv[2] ?? 'renderer/store';
  const groups = importCycles(root, dir);
  for (const g of groups) console.log(`cycle: ${g.join(', ')}`);
  console.log(`${dir}: ${groups.length} group(s) of files in an import cycle, ${groups.reduce((n, g) => n + g.length, 0)} file(s)`);
}
