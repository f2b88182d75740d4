#!/usr/bin/env node
// Lists the rules of engine/SPEC.md that no test names (a visible gap, not a failure), and the ids
// tests cite that SPEC.md does not define (a typo or a rule to write down).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rules = [...readFileSync(join(root, 'engine', 'SPEC.md'), 'utf8').matchAll(/^- `\[([A-Za-z0-9-]+)\]`/gm)].map((m) => m[1]);

const cited = new Set();
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p);
    else if (/\.(test|spec)\.tsx?$/.test(name)) {
      // Ids are cited at the start of test and describe titles: it('[L2-append] [static-stable] …'),
      // also by a test marked as failing until a known defect is fixed (it.fails).
      for (const t of readFileSync(p, 'utf8').matchAll(/\b(?:it|test|describe)(?:\.each\([\s\S]*?\)|\.fails)?\(\s*(['"`])((?:\[[A-Za-z0-9-]+\]\s*)+)/g)) {
        for (const id of t[2].matchAll(/\[([A-Za-z0-9-]+)\]/g)) cited.add(id[1]);
      }
    }
  }
};
walk(join(root, 'test'));

const missing = rules.filter((r) => !cited.has(r));
const unknown = [...cited].filter((c) => !rules.includes(c)).sort();
console.log(`engine/SPEC.md: ${rules.length} rules, ${rules.length - missing.length} cited by tests.`);
if (missing.length) console.log(`Rules no test cites yet: ${missing.map((r) => `[${r}]`).join(' ')}`);
if (unknown.length) console.log(`Cited but not in SPEC.md: ${unknown.map((r) => `[${r}]`).join(' ')}`);
