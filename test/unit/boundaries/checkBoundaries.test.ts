import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkBoundaries, importsOf, pureCoreFolders, violation, type FoundImport } from '../../boundaries/checkBoundaries.mjs';

const script = fileURLToPath(new URL('../../boundaries/checkBoundaries.mjs', import.meta.url));

// These tests run the checker on fixtures only. The real tree is checked once per `npm test`, by
// `npm run check:boundaries` (the same checkBoundaries, as a CLI), not a second time here.
const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A temp project with the given root-relative files. */
function fixture(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'strata-boundaries-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** `file:line` of every violation of a one-file project. */
function check(path: string, text: string): string[] {
  return checkBoundaries(fixture({ [path]: text })).map((v) => `${v.file}:${v.line}`);
}

describe('checkBoundaries: renderer', () => {
  it('refuses an import of engine/host', () => {
    const root = fixture({ 'renderer/app/App.tsx': "import { Host } from '../../engine/host';\n" });
    expect(checkBoundaries(root)).toEqual([
      { file: 'renderer/app/App.tsx', line: 1, message: expect.stringContaining('engine/host') },
    ]);
  });

  it('refuses a value import of engine/contract', () => {
    const root = fixture({ 'renderer/api/client.ts': "import { commandNames } from '../../engine/contract';\n" });
    expect(checkBoundaries(root)).toEqual([
      { file: 'renderer/api/client.ts', line: 1, message: expect.stringContaining('import type') },
    ]);
  });

  it.each([
    ["import type { StrataApi } from '../../engine/contract';"],
    ["import type { AgentDto } from '../../engine/contract/dto';"],
    ["import { type AgentDto, type StrataEvent } from '../../engine/contract';"],
    ["import type * as contract from '../../engine/contract';"],
    ["export type { AgentDto } from '../../engine/contract';"],
    ["export { type AgentDto } from '../../engine/contract';"],
    ["type T = import('../../engine/contract').AgentDto;"],
    ["import { helper } from '../store/helper';"],
    ["import { create } from 'zustand';\nimport { useState } from 'react';"],
    ["import { COMPARISON_MAX_TRACES, MAX_TRACE_CONTENT_BYTES } from '../../engine/shared/limits';"],
    ["import { RESIDUAL_EXPOSURE } from '../../engine/shared/purgePolicy.ts';"],
    ["export { COMPARISON_STRATEGIES } from '../../engine/shared/strategyNames';"],
    ["import { utf8Length } from '../../engine/text/utf8';"],
  ])('allows %s', (line) => {
    expect(check('renderer/api/x.ts', `${line}\n`)).toEqual([]);
  });

  it.each([
    ["import { type AgentDto, commandNames } from '../../engine/contract';"],
    ["import * as contract from '../../engine/contract';"],
    ["import '../../engine/contract';"],
    ["export * from '../../engine/contract';"],
    ["export { commandNames } from '../../engine/contract';"],
    ["import type { Host } from '../../engine/host';"],
    ["import { x } from '../../electron/preload/createPreloadApi';"],
    ["import { strategies } from '../../engine/strategies/strategies';"],
    ["import { contentHash } from '../../engine/text/hash';"],
    ["import { x } from '../../engine/sharedState/x';"],
    ["import { x } from '../../engine/text/utf8Extra';"],
  ])('refuses %s', (line) => {
    expect(check('renderer/api/x.ts', `${line}\n`)).toEqual(['renderer/api/x.ts:1']);
  });

  it.each([["'node:fs'"], ["'fs'"], ["'node:path'"], ["'fs/promises'"], ["'electron'"], ["'better-sqlite3'"], ["'ws'"]])(
    'refuses the host-side module %s',
    (spec) => {
      expect(check('renderer/app/x.ts', `import * as m from ${spec};\n`)).toEqual(['renderer/app/x.ts:1']);
    },
  );

  // [bug] `builtins` is built from builtinModules, which on Node 20/22 omits the prefix-only
  // built-ins (node:test, node:sea, node:sqlite), so they pass as if they were npm packages.
  it.each([["'node:test'"], ["'node:sea'"]])('refuses the prefix-only Node built-in %s', (spec) => {
    expect(check('renderer/app/x.ts', `import * as m from ${spec};\n`)).toEqual(['renderer/app/x.ts:1']);
    expect(check('engine/items/x.ts', `import * as m from ${spec};\n`)).toEqual(['engine/items/x.ts:1']);
  });
});

describe('checkBoundaries: engine', () => {
  it.each([["'electron'"], ["'react'"], ["'react-dom/client'"], ["'zustand'"], ["'recharts'"], ["'@testing-library/react'"]])(
    'refuses the view-side package %s',
    (spec) => {
      expect(check('engine/host/x.ts', `import * as m from ${spec};\n`)).toEqual(['engine/host/x.ts:1']);
    },
  );

  it('allows Node built-ins only in engine/node and engine/host: every other folder is the pure core', () => {
    const text = "import { readFileSync } from 'node:fs';\nimport { join } from 'path';\n";
    const root = fixture({
      'engine/items/Item.ts': text,
      'engine/pack/pack.ts': text,
      'engine/host/Host.ts': text,
      'engine/node/catalog/Catalog.ts': text,
      'engine/node/tools/readFile.ts': text,
      'engine/providers/http.ts': text,
      'engine/traces/read.ts': text,
      'engine/nodes/x.ts': text,
    });
    expect(checkBoundaries(root).map((v) => `${v.file}:${v.line}`).sort()).toEqual([
      'engine/items/Item.ts:1',
      'engine/items/Item.ts:2',
      'engine/nodes/x.ts:1',
      'engine/nodes/x.ts:2',
      'engine/pack/pack.ts:1',
      'engine/pack/pack.ts:2',
      'engine/providers/http.ts:1',
      'engine/providers/http.ts:2',
      'engine/traces/read.ts:1',
      'engine/traces/read.ts:2',
    ]);
    expect(checkBoundaries(root)[0]?.message).toMatch(/the pure core .* may not import the Node built-in "node:fs": Node is touched only in engine\/node\/ and engine\/host\//);
  });

  it('does not let engine/runtime touch Node built-ins (the tools that spawn live in engine/node/tools)', () => {
    expect(check('engine/runtime/loop.ts', "import { spawn } from 'node:child_process';\n")).toEqual(['engine/runtime/loop.ts:1']);
  });

  it.each([["'openai'"], ["'@anthropic-ai/sdk'"], ["'ws'"]])('refuses the Node-side package %s in the pure core and allows it in engine/node', (spec) => {
    expect(check('engine/providers/Provider.ts', `import * as m from ${spec};\n`)).toEqual(['engine/providers/Provider.ts:1']);
    expect(check('engine/node/providers/p.ts', `import * as m from ${spec};\n`)).toEqual([]);
  });

  it('refuses any import of engine/node or engine/host from the pure core, even of a type', () => {
    const root = fixture({
      'engine/node/catalog/Catalog.ts': 'export class Catalog {}\n',
      'engine/host/Host.ts': 'export class Host {}\n',
      'engine/items/x.ts': "import type { Catalog } from '../node/catalog/Catalog';\nimport { Host } from '../host/Host';\n",
      'engine/host/y.ts': "import { Catalog } from '../node/catalog/Catalog';\n",
      'engine/node/z.ts': "import { Host } from '../host/Host';\n",
    });
    const found = checkBoundaries(root);
    expect(found.map((v) => `${v.file}:${v.line}`).sort()).toEqual(['engine/items/x.ts:1', 'engine/items/x.ts:2']);
    expect(found[0]?.message).toMatch(/not even a type/);
  });

  it('allows a type-only import of a Node built-in anywhere in the engine', () => {
    expect(check('engine/items/x.ts', "import type { Stats } from 'node:fs';\n")).toEqual([]);
  });

  it('allows better-sqlite3 only in engine/node/catalog', () => {
    const text = "import Database from 'better-sqlite3';\n";
    const root = fixture({
      'engine/node/catalog/Catalog.ts': text,
      'engine/host/Host.ts': text,
      'engine/node/memoryStore/x.ts': text,
      'engine/node/y.ts': "import type { Database } from 'better-sqlite3';\n",
    });
    expect(checkBoundaries(root).map((v) => v.file).sort()).toEqual(['engine/host/Host.ts', 'engine/node/memoryStore/x.ts']);
    expect(checkBoundaries(root).every((v) => v.message.includes('only engine/node/catalog (and the read-only OpenCode reader) may open SQLite'))).toBe(true);
  });

  it('allows better-sqlite3 in the read-only OpenCode database reader only, not elsewhere in engine/node/traces', () => {
    const text = "import Database from 'better-sqlite3';\n";
    const root = fixture({ 'engine/node/traces/readOpenCodeDatabase.ts': text, 'engine/node/traces/importTraceFile.ts': text, 'engine/node/traces/readTraceSource.ts': text });
    expect(checkBoundaries(root).map((v) => v.file).sort()).toEqual(['engine/node/traces/importTraceFile.ts', 'engine/node/traces/readTraceSource.ts']);
  });

  // [bug?] The rule is only applied to files under engine/; an Electron shell may open SQLite
  // directly, bypassing the catalog.
  it('refuses better-sqlite3 in the Electron shells too', () => {
    const text = "import Database from 'better-sqlite3';\n";
    const root = fixture({ 'electron/main/db.ts': text, 'electron/web/db.ts': text });
    expect(checkBoundaries(root).map((v) => v.file).sort()).toEqual(['electron/main/db.ts', 'electron/web/db.ts']);
  });

  it.each([
    ["'../../electron/main/ipcAdapter'"],
    ["'../../renderer/store/reduce'"],
    ["'../../test/support/x'"],
    ["'../../../elsewhere/x'"],
  ])('refuses %s: nothing of ours above the engine', (spec) => {
    expect(check('engine/items/x.ts', `import { x } from ${spec};\n`)).toEqual(['engine/items/x.ts:1']);
  });

  it('allows imports within the engine', () => {
    expect(check('engine/items/x.ts', "import { y } from '../pack/y';\nimport { z } from './z';\nimport { c } from '../contract';\n")).toEqual([]);
  });

  it('lets engine/contract import zod, itself and the pure layer', () => {
    const root = fixture({
      'engine/contract/traceDto.ts': [
        "import { z } from 'zod';",
        "import { COMPARISON_BUDGET } from '../shared/limits';",
        "import { COMPARISON_STRATEGIES } from '../shared/strategyNames';",
        "export { PURGE_CONFIRMATION } from '../shared/purgePolicy';",
        "import { cacheHitRate } from '../metrics/cacheHitRate';",
        "import { contentHash } from '../text/hash';",
        "import { strategies } from '../strategies/strategies';",
        '',
      ].join('\n'),
    });
    expect(checkBoundaries(root).map((v) => v.line)).toEqual([6, 7]);
  });

  it('lets engine/contract import only zod and itself of the rest', () => {
    const root = fixture({
      'engine/contract/commands.ts': [
        "import { z } from 'zod';",
        "import { AgentDtoSchema } from './dto';",
        "import type { Host } from '../host';",
        "import { Catalog } from '../catalog/Catalog';",
        "import WebSocket from 'ws';",
        "import type { Stats } from 'node:fs';",
        "import { useState } from 'react';",
        '',
      ].join('\n'),
    });
    expect(checkBoundaries(root).map((v) => v.line)).toEqual([3, 4, 5, 6, 7]);
  });
});

describe('checkBoundaries: the pure layer (engine/shared, engine/metrics, engine/text/utf8)', () => {
  it('[one-definition] lets the renderer import engine/metrics values, and nothing else of the engine but the pure layer and contract types', () => {
    expect(check('renderer/store/x.ts', "import { cacheHitRate } from '../../engine/metrics/cacheHitRate';\nimport { reuseRatio } from '../../engine/metrics/prefixReuse';\n")).toEqual([]);
    expect(check('renderer/store/x.ts', "import { priceRun } from '../../engine/pricing/costUsd';\n")).toEqual(['renderer/store/x.ts:1']);
    expect(check('renderer/store/x.ts', "import { ATTACH_BUDGET } from '../../engine/shared/limits';\nimport { ATTACH_BUDGET as B } from '../../engine/contract';\n")).toEqual(['renderer/store/x.ts:2']);
  });

  it('says where a value of the contract can be imported from instead', () => {
    const message = violation('renderer/a.ts', { spec: '../engine/contract', typeOnly: false, line: 1 }, 'engine/contract');
    expect(message).toContain('engine/shared');
  });

  it('keeps every part of the pure layer to itself: no other engine folder, no package, no built-in', () => {
    const root = fixture({
      'engine/shared/limits.ts': [
        "import { ENGINE_STRATEGIES } from './strategyNames';",
        "import { cacheHitRate } from '../metrics/cacheHitRate';",
        "import { utf8Length } from '../text/utf8';",
        "import { contentHash } from '../text/hash';",
        "import type { AgentDto } from '../contract';",
        "import { z } from 'zod';",
        "import { readFileSync } from 'node:fs';",
        "import type { Stats } from 'node:fs';",
        '',
      ].join('\n'),
      'engine/text/utf8.ts': "import { COMPARISON_BUDGET } from '../shared/limits';\nimport { contentHash } from './hash';\nimport { Buffer } from 'node:buffer';\n",
      'engine/text/hash.ts': "import { createHash } from 'node:crypto';\nimport { z } from 'zod';\n",
    });
    expect(checkBoundaries(root).map((v) => `${v.file}:${v.line}`).sort()).toEqual([
      'engine/shared/limits.ts:4',
      'engine/shared/limits.ts:5',
      'engine/shared/limits.ts:6',
      'engine/shared/limits.ts:7',
      'engine/text/hash.ts:1',
      'engine/text/utf8.ts:2',
      'engine/text/utf8.ts:3',
    ]);
  });

  it('[one-definition] keeps engine/metrics free of everything but itself and the UTF-8 arithmetic, so the renderer can run it', () => {
    const root = fixture({
      'engine/metrics/m.ts': [
        "import { cacheHitRate } from './cacheHitRate';",
        "import { utf8Length } from '../text/utf8';",
        "import type { Usage } from '../providers/Provider';",
        "import { createItem } from '../items/createItem';",
        "import { z } from 'zod';",
        "import { readFileSync } from 'node:fs';",
        "import type { Stats } from 'node:fs';",
        '',
      ].join('\n'),
    });
    expect(checkBoundaries(root).map((v) => v.line)).toEqual([3, 4, 5, 6]);
  });
});

describe('checkBoundaries: electron', () => {
  it('refuses imports of renderer/ and test/', () => {
    const root = fixture({
      'electron/main/x.ts': "import { App } from '../../renderer/app/App';\nimport type { S } from '../../renderer/store/store';\n",
      'electron/web/y.ts': "import { x } from '../../test/support/chromium.mjs';\n",
    });
    expect(checkBoundaries(root).map((v) => `${v.file}:${v.line}`).sort()).toEqual([
      'electron/main/x.ts:1',
      'electron/main/x.ts:2',
      'electron/web/y.ts:1',
    ]);
  });

  it('allows the main process to import the engine, Node and electron', () => {
    const text = [
      "import { app } from 'electron';",
      "import { join } from 'node:path';",
      "import { WebSocketServer } from 'ws';",
      "import { Host } from '../../engine/host';",
      "import { commandNames } from '../../engine/contract';",
      "import { readStatic } from '../web/staticFiles';",
      '',
    ].join('\n');
    expect(check('electron/main/index.ts', text)).toEqual([]);
  });

  it('refuses view packages in the shells', () => {
    expect(check('electron/cli/x.ts', "import { useState } from 'react';\n")).toEqual(['electron/cli/x.ts:1']);
  });

  it('limits the sandboxed preload to electron and engine/contract', () => {
    const root = fixture({
      'electron/preload/index.ts': [
        "import { contextBridge } from 'electron';",
        "import { commandChannel } from '../../engine/contract';",
        "import { createPreloadApi } from './createPreloadApi';",
        "import WebSocket from 'ws';",
        "import { Host } from '../../engine/host';",
        "import { readFileSync } from 'node:fs';",
        "import { openHost } from '../shared/openHost';",
        "import type { WebSocket as WS } from 'ws';",
        '',
      ].join('\n'),
    });
    expect(checkBoundaries(root).map((v) => v.line)).toEqual([4, 5, 6, 7]);
  });
});

describe('checkBoundaries: how imports are found', () => {
  it('sees dynamic import(), require() and import = require()', () => {
    const root = fixture({
      'renderer/app/lazy.ts': [
        'export async function load() {',
        "  const m = await import('../../engine/host');",
        '  return m;',
        '}',
        "const fs = require('node:fs');",
        "import ws = require('ws');",
        'const t = require(`electron`);',
        '',
      ].join('\n'),
    });
    expect(checkBoundaries(root).map((v) => v.line)).toEqual([2, 5, 6, 7]);
  });

  it('reports the line of each import after comments, blank lines and multi-line clauses', () => {
    const root = fixture({
      'engine/items/x.ts': [
        '// header comment',
        '/**',
        ' * doc',
        ' */',
        "import { ok } from './ok';",
        '',
        'import {',
        '  readFileSync,',
        '  writeFileSync,',
        "} from 'node:fs';",
        "import { x } from '../../electron/x';",
        '',
        'export function f() {',
        "  return require('react');",
        '}',
        '',
      ].join('\n'),
    });
    expect(checkBoundaries(root)).toEqual([
      { file: 'engine/items/x.ts', line: 7, message: expect.stringContaining('node:fs') },
      { file: 'engine/items/x.ts', line: 11, message: expect.stringContaining('electron/x') },
      { file: 'engine/items/x.ts', line: 14, message: expect.stringContaining('react') },
    ]);
  });

  it('checks .tsx, .mts, .mjs and .js files, skips declaration files, node_modules and out/', () => {
    const bad = "import { Host } from '../../engine/host';\n";
    const root = fixture({
      'renderer/app/a.tsx': `${bad}export const A = () => <div />;\n`,
      'renderer/app/b.mts': bad,
      'renderer/app/c.mjs': bad,
      'renderer/app/d.js': bad,
      'renderer/app/e.d.ts': bad,
      'renderer/node_modules/pkg/index.ts': bad,
      'renderer/out/x.ts': bad,
      'renderer/app/notes.md': bad,
    });
    expect(checkBoundaries(root).map((v) => v.file).sort()).toEqual([
      'renderer/app/a.tsx',
      'renderer/app/b.mts',
      'renderer/app/c.mjs',
      'renderer/app/d.js',
    ]);
  });

  it('checks only engine/, electron/ and renderer/', () => {
    const root = fixture({ 'test/unit/x.ts': "import { Host } from '../../engine/host';\nimport 'electron';\n" });
    expect(checkBoundaries(root)).toEqual([]);
  });

  it('returns nothing for an empty tree', () => {
    expect(checkBoundaries(fixture({}))).toEqual([]);
  });
});

describe('importsOf', () => {
  const cases: [string, FoundImport[]][] = [
    ["import a from 'a';", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["import type { A } from 'a';", [{ spec: 'a', typeOnly: true, line: 1 }]],
    ["import { type A, type B } from 'a';", [{ spec: 'a', typeOnly: true, line: 1 }]],
    ["import { type A, B } from 'a';", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["import D, { type A } from 'a';", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["import {} from 'a';", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["import 'a';", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["export * from 'a';", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["export type * from 'a';", [{ spec: 'a', typeOnly: true, line: 1 }]],
    ["export { type A } from 'a';", [{ spec: 'a', typeOnly: true, line: 1 }]],
    ["export { type A, B } from 'a';", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["let t: typeof import('a');", [{ spec: 'a', typeOnly: true, line: 1 }]],
    ["void import('a');", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["require('a');", [{ spec: 'a', typeOnly: false, line: 1 }]],
    ["notRequire('a'); x.require('b');", []],
    ["const name = 'a'; void import(name);", []],
    ['export const x = 1;', []],
  ];

  it.each(cases)('%s', (text, expected) => {
    expect(importsOf('x.ts', text)).toEqual(expected);
  });

  it('lists several imports in source order with their lines', () => {
    const text = "import a from 'a';\n\nimport type { B } from 'b';\nexport const c = () => import('c');\n";
    expect(importsOf('x.ts', text)).toEqual([
      { spec: 'a', typeOnly: false, line: 1 },
      { spec: 'b', typeOnly: true, line: 3 },
      { spec: 'c', typeOnly: false, line: 4 },
    ]);
  });

  it('parses JSX in .tsx files', () => {
    const text = "import { A } from './A';\nexport const B = () => <A prop={1}>text</A>;\nimport('./C');\n";
    expect(importsOf('x.tsx', text).map((i) => [i.spec, i.line])).toEqual([
      ['./A', 1],
      ['./C', 3],
    ]);
  });
});

describe('violation', () => {
  const rows: { from: string; spec: string; typeOnly: boolean; target: string | undefined; broken: boolean }[] = [
    { from: 'renderer/a.ts', spec: '../engine/contract', typeOnly: true, target: 'engine/contract', broken: false },
    { from: 'renderer/a.ts', spec: '../engine/contract', typeOnly: false, target: 'engine/contract', broken: true },
    { from: 'renderer/a.ts', spec: '../engine/contract/dto', typeOnly: true, target: 'engine/contract/dto', broken: false },
    { from: 'renderer/a.ts', spec: './b', typeOnly: false, target: 'renderer/b', broken: false },
    { from: 'renderer/a.ts', spec: 'react', typeOnly: false, target: undefined, broken: false },
    { from: 'renderer/a.ts', spec: 'node:fs', typeOnly: true, target: undefined, broken: true },
    { from: 'electron/main/a.ts', spec: '../../engine/host', typeOnly: false, target: 'engine/host', broken: false },
    { from: 'electron/main/a.ts', spec: 'node:fs', typeOnly: false, target: undefined, broken: false },
    { from: 'electron/preload/a.ts', spec: 'electron', typeOnly: false, target: undefined, broken: false },
    { from: 'electron/preload/a.ts', spec: '../../engine/contract', typeOnly: false, target: 'engine/contract', broken: false },
    { from: 'electron/preload/a.ts', spec: 'zod', typeOnly: false, target: undefined, broken: true },
    { from: 'engine/contract/a.ts', spec: 'zod', typeOnly: false, target: undefined, broken: false },
    { from: 'engine/contract/a.ts', spec: './b', typeOnly: false, target: 'engine/contract/b', broken: false },
    { from: 'engine/contract/a.ts', spec: '../items/x', typeOnly: true, target: 'engine/items/x', broken: true },
    { from: 'engine/items/a.ts', spec: 'js-tiktoken', typeOnly: false, target: undefined, broken: false },
    { from: 'engine/items/a.ts', spec: '../contract', typeOnly: false, target: 'engine/contract', broken: false },
    { from: 'renderer/a.ts', spec: '../engine/shared/limits', typeOnly: false, target: 'engine/shared/limits', broken: false },
    { from: 'renderer/a.ts', spec: '../engine/shared', typeOnly: false, target: 'engine/shared', broken: false },
    { from: 'renderer/a.ts', spec: '../engine/text/utf8.ts', typeOnly: false, target: 'engine/text/utf8.ts', broken: false },
    { from: 'renderer/a.ts', spec: '../engine/text/hash', typeOnly: false, target: 'engine/text/hash', broken: true },
    { from: 'engine/contract/a.ts', spec: '../shared/limits', typeOnly: false, target: 'engine/shared/limits', broken: false },
    { from: 'engine/contract/a.ts', spec: '../text/hash', typeOnly: false, target: 'engine/text/hash', broken: true },
    { from: 'engine/shared/a.ts', spec: '../metrics/prefixReuse', typeOnly: false, target: 'engine/metrics/prefixReuse', broken: false },
    { from: 'engine/shared/a.ts', spec: '../contract', typeOnly: true, target: 'engine/contract', broken: true },
    { from: 'engine/shared/a.ts', spec: 'zod', typeOnly: false, target: undefined, broken: true },
    { from: 'engine/text/utf8.ts', spec: './hash', typeOnly: false, target: 'engine/text/hash', broken: true },
    { from: 'engine/text/hash.ts', spec: 'node:crypto', typeOnly: false, target: undefined, broken: true },
    { from: 'engine/items/a.ts', spec: '../shared/limits', typeOnly: false, target: 'engine/shared/limits', broken: false },
    { from: 'electron/cli/a.ts', spec: '../../engine/shared/limits', typeOnly: false, target: 'engine/shared/limits', broken: false },
  ];

  it.each(rows)('$from importing $spec (type-only: $typeOnly) is a violation: $broken', ({ from, spec, typeOnly, target, broken }) => {
    const message = violation(from, { spec, typeOnly, line: 1 }, target);
    if (broken) expect(message).toEqual(expect.any(String));
    else expect(message).toBeUndefined();
  });
});

describe('the checker as a CLI', () => {
  const run = (root: string) => spawnSync(process.execPath, [script, '--root', root], { encoding: 'utf8', timeout: 60_000 });

  it('exits 1 and prints file:line for each violation', () => {
    const root = fixture({
      'renderer/app/App.tsx': "import type { A } from '../../engine/contract';\nimport { Host } from '../../engine/host';\n",
      'engine/items/x.ts': "\n\nimport 'electron';\n",
    });
    const out = run(root);
    expect(out.status).toBe(1);
    expect(out.stderr).toContain('renderer/app/App.tsx:2: ');
    expect(out.stderr).toContain('engine/items/x.ts:3: ');
    expect(out.stderr).toContain('2 violation(s)');
    expect(out.stderr).not.toContain('App.tsx:1:');
  });

  it('exits 0 for a clean tree', () => {
    const root = fixture({
      'renderer/app/App.tsx': "import type { A } from '../../engine/contract';\n",
      'engine/node/catalog/Catalog.ts': "import Database from 'better-sqlite3';\nimport { join } from 'node:path';\n",
      'electron/main/index.ts': "import { app } from 'electron';\nimport { Host } from '../../engine/host';\n",
    });
    const out = run(root);
    expect(out.status).toBe(0);
    expect(out.stdout).toContain('Import boundaries: ok');
    expect(out.stderr).toBe('');
  });
});

describe('[memory-only-module] checkBoundaries: the memory table connection', () => {
  it.each([
    ['engine/node/memoryStore/MemoryStore.ts', undefined],
    ['engine/node/catalog/Catalog.ts', undefined],
    ['engine/host/Host.ts', /only the memory store/],
    ['engine/node/traces/x.ts', /only the memory store/],
  ])('%s importing engine/node/catalog/memoryAccess', (from, expected) => {
    const v = violation(from, { spec: '../catalog/memoryAccess', typeOnly: false, line: 1 }, 'engine/node/catalog/memoryAccess');
    if (expected) expect(v).toMatch(expected);
    else expect(v).toBeUndefined();
  });
});

describe('checkBoundaries: tsconfig.engine.json is an include list of the pure core', () => {
  const pureTsconfig = (include: string[], extra: Record<string, unknown> = {}) => JSON.stringify({ compilerOptions: { types: [] }, include, ...extra });
  const tree = { 'engine/Engine.ts': '', 'engine/items/Item.ts': '', 'engine/pack/pack.ts': '', 'engine/node/catalog/Catalog.ts': '', 'engine/host/Host.ts': '' };

  it('passes when it includes exactly the top-level files and each folder but node/ and host/', () => {
    const root = fixture({ ...tree, 'tsconfig.engine.json': pureTsconfig(['engine/*.ts', 'engine/items/**/*.ts', 'engine/pack/**/*.ts']) });
    expect(pureCoreFolders(root)).toEqual(['engine/items', 'engine/pack']);
    expect(checkBoundaries(root)).toEqual([]);
  });

  it('names a new folder that is not listed, so it is classified when it is made', () => {
    const root = fixture({ ...tree, 'engine/fresh/x.ts': '', 'tsconfig.engine.json': pureTsconfig(['engine/*.ts', 'engine/items/**/*.ts', 'engine/pack/**/*.ts']) });
    const found = checkBoundaries(root);
    expect(found.map((v) => v.file)).toEqual(['tsconfig.engine.json']);
    expect(found[0]?.message).toMatch(/add "engine\/fresh\/\*\*\/\*\.ts" to "include"/);
  });

  it('refuses a Node folder in the list, a stray pattern and any exclude list', () => {
    const root = fixture({
      ...tree,
      'tsconfig.engine.json': pureTsconfig(['engine/*.ts', 'engine/items/**/*.ts', 'engine/pack/**/*.ts', 'engine/node/**/*.ts', 'engine/**/*.ts'], { exclude: ['engine/host/**'] }),
    });
    const messages = checkBoundaries(root).map((v) => v.message);
    expect(messages).toHaveLength(3);
    expect(messages.filter((m) => /"include" names "engine\/node\/\*\*\/\*\.ts"/.test(m))).toHaveLength(1);
    expect(messages.filter((m) => /"include" names "engine\/\*\*\/\*\.ts"/.test(m))).toHaveLength(1);
    expect(messages.filter((m) => /has an "exclude" list/.test(m))).toHaveLength(1);
  });

  it('says so when the file is not plain JSON', () => {
    const root = fixture({ ...tree, 'tsconfig.engine.json': '{ // a comment\n "include": [] }' });
    expect(checkBoundaries(root).map((v) => v.message)).toEqual([expect.stringMatching(/not plain JSON/)]);
  });
});
