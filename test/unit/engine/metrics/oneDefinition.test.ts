import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * `[one-definition]`: hit rate, prefix reuse and cost are each defined once (engine/metrics and the
 * price table in engine/pricing). A scan of the code outside those folders for the shapes a second
 * definition takes: a division whose dividend names cache reads or reuse, or is the complement of
 * the uncached tokens (a hit rate or a reuse ratio), the old weights table, and a price multiplier (1.25, 0.1, 2) applied to
 * cache or input tokens. It reads the syntax tree, so comments and strings never count.
 */

const root = fileURLToPath(new URL('../../../..', import.meta.url));
const SCANNED = ['engine', 'renderer', 'electron', 'test/bench'];
const DEFINITIONS = ['engine/metrics/', 'engine/pricing/'];
const SOURCE = /\.(ts|tsx|mts|mjs)$/;

/** A dividend naming cache reads or reuse, or the complement of uncached tokens (`prompt - uncached`). */
const DIVIDEND = /read|reuse|-\w*uncached|uncached\w*-/i;
const TOKENS = /cache|read|write|input|uncached|token/i;
const MULTIPLIERS = new Set([1.25, 0.1, 2, 0.05]);

/** `line: what` for every second definition in `text`. */
export function secondDefinitions(file: string, text: string): string[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const code = (node: ts.Node) => node.getText(source).replace(/\s+/g, '');
  const visit = (node: ts.Node) => {
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      if ((op === ts.SyntaxKind.SlashToken || op === ts.SyntaxKind.SlashEqualsToken) && DIVIDEND.test(code(node.left))) found.push(`${at(node)}: ${code(node)} (a hit rate or reuse ratio: call engine/metrics)`);
      if (op === ts.SyntaxKind.AsteriskToken) {
        for (const [factor, other] of [[node.left, node.right], [node.right, node.left]] as const) {
          if (ts.isNumericLiteral(factor) && MULTIPLIERS.has(Number(factor.text)) && TOKENS.test(code(other))) found.push(`${at(node)}: ${code(node)} (a price weight: use engine/pricing)`);
        }
      }
    }
    if (ts.isIdentifier(node) && node.text === 'COST_WEIGHTS') found.push(`${at(node)}: COST_WEIGHTS (cost weights: use engine/pricing)`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function* files(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'out' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else if (SOURCE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) yield path;
  }
}

describe('[one-definition] each figure is defined once', () => {
  it.each([
    ['const hit = u.cacheRead / (u.input + u.cacheRead + u.cacheWrite);', 1],
    ['const hit = prompt > 0 ? read / prompt : 0;', 1],
    ['const hit = prompt > 0 ? (prompt - uncached) / prompt : 0;', 1],
    ['const m = s.modelRead / s.modelPrompt;', 1],
    ['const reuse = bytes > 0 ? reusedBytes / bytes : 0;', 1],
    ['const reuse = a.reuseBytes / a.reuseWeight;', 1],
    ['const cost = input + cacheRead * 0.1 + cacheWrite * 1.25;', 2],
    ['const w = 2 * s.cacheWrite1h;', 1],
    ['const c = t.input * COST_WEIGHTS.input;', 1],
    ['// cacheRead / (input + cacheRead + cacheWrite), as a comment\nconst note = "cache read 0.1, write 1.25 per token; read / prompt";', 0],
    ['const share = referencesHeld / references;', 0],
    ['const half = total / 2; const double = width * 2;', 0],
    ['const rate = cacheHitRate({ input, cacheRead, cacheWrite }); const r = reuseRatio(reused, bytes);', 0],
  ])('[one-definition] the scan finds the shapes of a second definition: %s', (snippet, count) => {
    expect(secondDefinitions('snippet.ts', snippet)).toHaveLength(count);
  });

  it('[one-definition] no file of engine/, renderer/, electron/ or test/bench/ outside engine/metrics and engine/pricing defines a hit rate, a reuse ratio or a price weight of its own', () => {
    const offences: string[] = [];
    let scanned = 0;
    for (const top of SCANNED) {
      for (const path of files(join(root, top))) {
        const rel = relative(root, path).split(sep).join('/');
        if (DEFINITIONS.some((d) => rel.startsWith(d))) continue;
        scanned++;
        for (const f of secondDefinitions(rel, readFileSync(path, 'utf8'))) offences.push(`${rel}:${f}`);
      }
    }
    expect(scanned).toBeGreaterThan(300);
    expect(offences).toEqual([]);
  });
});
