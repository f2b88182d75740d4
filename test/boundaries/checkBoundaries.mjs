#!/usr/bin/env node
// The import-boundary check (DESIGN.md "Layout"): dependencies point one way, and the folders say where
// code may touch Node.
//   renderer -> engine/contract, type-only imports; the pure layer, values too; no Node built-ins, no Electron.
//   the pure layer (engine/shared: limits, strategy names, policy texts; engine/metrics: the one definition
//               of each figure; engine/text/utf8: the byte arithmetic of the reuse figure) -> only itself, and
//               no package or built-in: it is dependency-free, so the renderer can run it.
//   electron -> engine; never renderer/ or test/; the sandboxed preload only electron + engine/contract;
//               no SQLite of its own (the catalog owns the database).
//   engine   -> nothing of ours above it, no electron/react/DOM-side packages. Two folders may touch Node:
//               engine/node/ (the adapters: catalog, memory store, SDK providers, tools, trace files and
//               live tails, workspace config and skills loading) and engine/host/ (the application
//               services that compose them). Every other engine folder is the pure core: no Node
//               built-in, no Node-side package, and no import (not even of a type) from node/ or host/,
//               so tsconfig.engine.json type-checks it with neither DOM nor Node. That tsconfig is an
//               include list of exactly the pure core's folders (checked here, so a new folder is
//               classified when it is made). better-sqlite3 only in engine/node/catalog/ and the
//               read-only OpenCode database reader (engine/node/traces/readOpenCodeDatabase.ts).
//   engine/contract -> zod, itself and the pure layer.
//   engine/node/catalog/memoryAccess (the memory table's connection) -> only from engine/node/catalog and
//               engine/node/memoryStore.
// Parses every source file with the TypeScript compiler (static, dynamic and require imports).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|tsx|mts|cts|mjs|cjs|js|jsx)$/;
/**
 * The pure layer: dependency-free values and functions every layer may import, the renderer
 * included (values, not only types). The limits, strategy names and policy texts (engine/shared),
 * the one definition of each figure (engine/metrics) and the UTF-8 arithmetic the reuse figure
 * counts with. Each of them imports only the layer.
 */
const PURE_LAYER = ['engine/shared', 'engine/metrics', 'engine/text/utf8'];
/** The engine folders that may touch Node: the adapters and the application services that compose them. */
const NODE_FOLDERS = ['engine/node/', 'engine/host/'];
/** Packages that need Node (or wrap a provider's SDK): only the Node folders import them. */
const NODE_PACKAGES = ['better-sqlite3', '@anthropic-ai/sdk', 'openai', 'ws'];
const SQLITE_HOME = 'engine/node/catalog/';
/** The one engine file outside the catalog that may open SQLite: it reads OpenCode's database read-only, never our catalog. */
const SQLITE_READERS = ['engine/node/traces/readOpenCodeDatabase.ts'];
const MEMORY_ACCESS = 'engine/node/catalog/memoryAccess';
const MEMORY_ACCESS_USERS = ['engine/node/catalog/', 'engine/node/memoryStore/'];
/** Whether a root-relative engine path lies in a folder that may touch Node. */
const inNodeFolder = (path) => NODE_FOLDERS.some((p) => path.startsWith(p) || `${path}/` === p);
const VIEW_PACKAGES = ['electron', 'react', 'react-dom', 'zustand', 'recharts', '@testing-library/', 'react-is'];

const toPosix = (p) => p.split(sep).join('/');
/** A root-relative path (a file or an import's target, with or without its extension) that lies in the pure layer. */
const inPureLayer = (path) => {
  const stem = path.replace(SOURCE, '');
  return PURE_LAYER.some((p) => stem === p || stem.startsWith(`${p}/`));
};
const packageName = (spec) => (spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]);
const isViewPackage = (spec) => VIEW_PACKAGES.some((p) => (p.endsWith('/') ? spec.startsWith(p) : packageName(spec) === p));

function* walk(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    if (name === 'node_modules' || name === 'out' || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* walk(full);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) yield full;
  }
}

/** Every import of a file: specifier, line, and whether it is erased at compile time. */
export function importsOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found = [];
  const add = (node, spec, typeOnly) => found.push({ spec, typeOnly, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const c = node.importClause;
      const named = c?.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
      const allNamedTypes = !!named && named.length > 0 && !c.name && named.every((e) => e.isTypeOnly);
      add(node, node.moduleSpecifier.text, !!c && (c.isTypeOnly || allNamedTypes));
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      add(node, node.moduleSpecifier.text, node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference) && ts.isStringLiteral(node.moduleReference.expression)) {
      add(node, node.moduleReference.expression.text, node.isTypeOnly);
    } else if (ts.isCallExpression(node) && node.arguments.length >= 1 && ts.isStringLiteralLike(node.arguments[0])) {
      const isDynamicImport = node.expression.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(node.expression) && node.expression.text === 'require';
      if (isDynamicImport || isRequire) add(node, node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The rule an import breaks, or undefined. `from` and `target` are root-relative posix paths. */
export function violation(from, imp, target) {
  const { spec, typeOnly } = imp;
  const bare = target === undefined;
  const builtin = bare && isBuiltin(spec);
  const within = (dir) => target === dir || target.startsWith(`${dir}/`);

  if (from.startsWith('renderer/')) {
    if (!bare) {
      if (target.startsWith('renderer/')) return undefined;
      if (inPureLayer(target)) return undefined;
      if (within('engine/contract')) {
        return typeOnly ? undefined : `renderer may import engine/contract only with "import type" (${spec}); import its values from the pure layer (${PURE_LAYER.join(', ')})`;
      }
      return `renderer may not import ${target} (only types from engine/contract, and the pure layer: ${PURE_LAYER.join(', ')})`;
    }
    if (builtin) return `renderer may not import the Node built-in "${spec}"`;
    if (['electron', 'better-sqlite3', 'ws', 'js-tiktoken'].includes(packageName(spec))) return `renderer may not import the host-side package "${spec}"`;
    return undefined;
  }

  if (from.startsWith('electron/')) {
    if (!bare && (target.startsWith('renderer/') || target.startsWith('test/'))) return `electron may not import ${target}`;
    if (from.startsWith('electron/preload/')) {
      if (bare && spec !== 'electron' && !typeOnly) return `the sandboxed preload may import only "electron" and engine/contract (${spec})`;
      if (!bare && !within('electron/preload') && !within('engine/contract')) {
        return `the sandboxed preload may import only engine/contract of the engine (${target})`;
      }
    }
    if (bare && !typeOnly && ['react', 'react-dom', 'zustand', 'recharts'].includes(packageName(spec))) return `electron may not import the view package "${spec}"`;
    if (bare && !typeOnly && packageName(spec) === 'better-sqlite3') return `only engine/node/catalog may open SQLite (better-sqlite3 imported from ${from})`;
    return undefined;
  }

  if (from.startsWith('engine/')) {
    if (!bare && !target.startsWith('engine/')) return `engine may not import ${target}: nothing of ours above it`;
    if (from.startsWith('engine/contract/')) {
      if (bare && spec !== 'zod') return `engine/contract may import only zod (${spec})`;
      if (!bare && !within('engine/contract') && !inPureLayer(target)) return `engine/contract may import only itself and the pure layer (${target})`;
      return undefined;
    }
    if (inPureLayer(from)) {
      if (bare && !typeOnly) return `the pure layer (${from}) may import no package or built-in ("${spec}"): the renderer runs it`;
      if (!bare && !inPureLayer(target)) return `the pure layer may import only itself (${PURE_LAYER.join(', ')}), not ${target}: the renderer runs it`;
      return undefined;
    }
    if (bare && isViewPackage(spec)) return `engine may not import "${spec}"`;
    const nodeSide = inNodeFolder(from);
    if (!nodeSide) {
      if (builtin && !typeOnly) return `the pure core (${from}) may not import the Node built-in "${spec}": Node is touched only in ${NODE_FOLDERS.join(' and ')}`;
      if (bare && NODE_PACKAGES.includes(packageName(spec))) return `the pure core (${from}) may not import the Node-side package "${spec}": only ${NODE_FOLDERS.join(' and ')} may`;
      if (!bare && inNodeFolder(target)) return `the pure core (${from}) may not import ${target}, not even a type: ${NODE_FOLDERS.join(' and ')} lie above it`;
    }
    if (bare && packageName(spec) === 'better-sqlite3' && !typeOnly && !from.startsWith(SQLITE_HOME) && !SQLITE_READERS.includes(from)) {
      return `only ${SQLITE_HOME.slice(0, -1)} (and the read-only OpenCode reader) may open SQLite (better-sqlite3 imported from ${from})`;
    }
    if (!bare && target === MEMORY_ACCESS && !MEMORY_ACCESS_USERS.some((p) => from.startsWith(p))) {
      return `only the memory store (engine/node/memoryStore) may reach the memory table's connection (${from})`;
    }
  }
  return undefined;
}

function resolveTarget(root, file, spec) {
  if (!spec.startsWith('.') && !spec.startsWith('/')) return undefined;
  return toPosix(relative(root, resolve(dirname(file), spec)));
}

/** The engine's pure-core folders under `root`: every folder of engine/ but the Node folders. */
export function pureCoreFolders(root) {
  let names;
  try {
    names = readdirSync(join(root, 'engine'));
  } catch {
    return [];
  }
  return names
    .filter((n) => !n.startsWith('.') && statSync(join(root, 'engine', n)).isDirectory())
    .map((n) => `engine/${n}`)
    .filter((d) => !inNodeFolder(d))
    .sort();
}

/**
 * tsconfig.engine.json type-checks the pure core with neither DOM nor Node: it must include exactly
 * the engine's top-level files and each pure-core folder, and exclude nothing (an exclude list is how
 * the pure cache model once went unchecked). Absent file: nothing to check (a fixture tree).
 */
export function checkEngineTsconfig(root) {
  const file = join(root, 'tsconfig.engine.json');
  let config;
  try {
    config = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    if (err && err.code === 'ENOENT') return [];
    return [{ file: 'tsconfig.engine.json', line: 1, message: `tsconfig.engine.json is not plain JSON: ${err.message}` }];
  }
  const out = [];
  const include = Array.isArray(config.include) ? config.include : [];
  const expected = ['engine/*.ts', ...pureCoreFolders(root).map((d) => `${d}/**/*.ts`)];
  for (const want of expected) if (!include.includes(want)) out.push({ file: 'tsconfig.engine.json', line: 1, message: `the pure core's folder is not type-checked as pure: add "${want}" to "include" (or move the folder into ${NODE_FOLDERS.join(' or ')} if it must touch Node)` });
  for (const got of include) if (!expected.includes(got)) out.push({ file: 'tsconfig.engine.json', line: 1, message: `"include" names "${got}", which is not one of the pure core's folders (engine/*.ts and each engine folder but ${NODE_FOLDERS.join(' and ')})` });
  if (config.exclude !== undefined) out.push({ file: 'tsconfig.engine.json', line: 1, message: 'tsconfig.engine.json has an "exclude" list: the pure core is an include list of folders' });
  return out;
}

/** All violations under `root` (its engine/, electron/ and renderer/ folders, and tsconfig.engine.json). */
export function checkBoundaries(root) {
  const out = [...checkEngineTsconfig(root)];
  for (const top of ['engine', 'electron', 'renderer']) {
    for (const file of walk(join(root, top))) {
      const from = toPosix(relative(root, file));
      for (const imp of importsOf(file, readFileSync(file, 'utf8'))) {
        const target = resolveTarget(root, file, imp.spec);
        const broken = violation(from, imp, target);
        if (broken) out.push({ file: from, line: imp.line, message: broken });
      }
    }
  }
  return out;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--root');
  const root = resolve(i > 0 ? process.argv[i + 1] : join(dirname(fileURLToPath(import.meta.url)), '..', '..'));
  const found = checkBoundaries(root);
  if (found.length > 0) {
    for (const v of found) console.error(`${v.file}:${v.line}: ${v.message}`);
    console.error(`Import boundaries: ${found.length} violation(s). See DESIGN.md "Layout".`);
    process.exit(1);
  }
  console.log('Import boundaries: ok (renderer -> engine/contract types and the pure layer (engine/shared, engine/metrics, engine/text/utf8); electron -> engine; engine -> nothing above it).');
}
