/**
 * A small file glob for `grep` (pure). Supported: `*` (any run without `/`), `?` (one character
 * but `/`), `[abc]` / `[a-z]` / `[!x]` classes, `**` as a whole segment (any number of folders),
 * `{a,b}` alternatives (nested, at most `MAX_ALTERNATIVES`). A glob without `/` matches a file's
 * base name (`*.ts`); with `/` it matches the root-relative path (`src/** /*.ts`). Matching is a
 * state-set simulation, linear in the path for each token, so no glob can backtrack
 * catastrophically (a glob is never turned into a RegExp).
 */

export const MAX_GLOB_CHARS = 200;
const MAX_ALTERNATIVES = 64;

type Token =
  | { t: 'char'; c: string }
  | { t: 'one' }
  | { t: 'star' }
  | { t: 'globstar' }
  | { t: 'globstar_dir' }
  | { t: 'class'; negated: boolean; singles: Set<string>; ranges: [string, string][] };

export type CompiledGlob = { ok: true; test(relativePath: string): boolean } | { ok: false; reason: string };

export function compileGlob(glob: string): CompiledGlob {
  if (glob.length > MAX_GLOB_CHARS) return { ok: false, reason: `the glob is longer than ${MAX_GLOB_CHARS} characters` };
  if (glob.includes('\u0000')) return { ok: false, reason: 'the glob contains a NUL character' };
  const normalized = glob.split('\\').join('/').replace(/^(\.\/)+/, '');
  if (normalized === '') return { ok: false, reason: 'the glob is empty' };
  const expanded = expandBraces(normalized);
  if (typeof expanded === 'string') return { ok: false, reason: expanded };
  const alternatives = expanded.map((alt) => ({ tokens: tokenize(alt), base: !alt.includes('/') }));
  return {
    ok: true,
    test(relativePath: string): boolean {
      const full = relativePath.split('\\').join('/');
      const base = full.slice(full.lastIndexOf('/') + 1);
      return alternatives.some((a) => matches(a.tokens, a.base ? base : full));
    },
  };
}

/** `{a,b}` alternatives expanded, or the reason they cannot be. */
function expandBraces(glob: string): string[] | string {
  const open = glob.indexOf('{');
  if (open < 0) {
    return glob.includes('}') ? 'the glob has a "}" without its "{"' : [glob];
  }
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < glob.length; i++) {
    const c = glob[i];
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (c === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) return 'the glob has a "{" without its "}"';
  if (glob.slice(0, open).includes('}')) return 'the glob has a "}" without its "{"';
  const bounds = [open, ...commas, close];
  const prefix = glob.slice(0, open);
  const rest = expandBraces(glob.slice(close + 1));
  if (typeof rest === 'string') return rest;
  const out: string[] = [];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const inner = expandBraces(glob.slice((bounds[k] as number) + 1, bounds[k + 1]));
    if (typeof inner === 'string') return inner;
    for (const a of inner) {
      for (const b of rest) {
        out.push(prefix + a + b);
        if (out.length > MAX_ALTERNATIVES) return `the glob expands to more than ${MAX_ALTERNATIVES} alternatives`;
      }
    }
  }
  return out;
}

function tokenize(glob: string): Token[] {
  const tokens: Token[] = [];
  const chars = [...glob];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === '*') {
      let j = i;
      while (chars[j + 1] === '*') j++;
      const wholeSegment = (i === 0 || chars[i - 1] === '/') && (j + 1 === chars.length || chars[j + 1] === '/');
      if (j > i && wholeSegment) {
        if (chars[j + 1] === '/') {
          tokens.push({ t: 'globstar_dir' });
          j++;
        } else tokens.push({ t: 'globstar' });
      } else tokens.push({ t: 'star' });
      i = j;
    } else if (c === '?') tokens.push({ t: 'one' });
    else if (c === '[') {
      const parsed = parseClass(chars, i);
      if (parsed === undefined) tokens.push({ t: 'char', c });
      else {
        tokens.push(parsed.token);
        i = parsed.end;
      }
    } else tokens.push({ t: 'char', c });
  }
  return tokens;
}

/** A `[...]` class starting at `start`, or undefined when it is not closed (then `[` is literal). */
function parseClass(chars: string[], start: number): { token: Token; end: number } | undefined {
  let i = start + 1;
  const negated = chars[i] === '!' || chars[i] === '^';
  if (negated) i++;
  const singles = new Set<string>();
  const ranges: [string, string][] = [];
  let first = true;
  for (; i < chars.length; i++) {
    const c = chars[i] as string;
    if (c === ']' && !first) return { token: { t: 'class', negated, singles, ranges }, end: i };
    if (c === '/') return undefined;
    first = false;
    const hi = chars[i + 2];
    if (chars[i + 1] === '-' && hi !== undefined && hi !== ']') {
      ranges.push([c, hi]);
      i += 2;
    } else singles.add(c);
  }
  return undefined;
}

function classHas(token: Extract<Token, { t: 'class' }>, c: string): boolean {
  if (c === '/') return false;
  const inside = token.singles.has(c) || token.ranges.some(([lo, hi]) => c >= lo && c <= hi);
  return inside !== token.negated;
}

/** State-set simulation: `reach[j]` says the tokens so far match the first j characters. */
function matches(tokens: Token[], text: string): boolean {
  const s = [...text];
  const n = s.length;
  let reach = new Uint8Array(n + 1);
  reach[0] = 1;
  for (const token of tokens) {
    const next = new Uint8Array(n + 1);
    let any = false;
    switch (token.t) {
      case 'char':
      case 'one':
      case 'class':
        for (let j = 0; j < n; j++) {
          if (!reach[j]) continue;
          const c = s[j] as string;
          const ok = token.t === 'char' ? c === token.c : token.t === 'one' ? c !== '/' : classHas(token, c);
          if (ok) {
            next[j + 1] = 1;
            any = true;
          }
        }
        break;
      case 'star':
        for (let j = 0; j <= n; j++) {
          if (reach[j] || (j > 0 && next[j - 1] && s[j - 1] !== '/')) {
            next[j] = 1;
            any = true;
          }
        }
        break;
      case 'globstar':
        for (let j = 0; j <= n; j++) {
          if (reach[j] || (j > 0 && next[j - 1])) {
            next[j] = 1;
            any = true;
          }
        }
        break;
      case 'globstar_dir': {
        // Zero folders, or any run ending with "/".
        let before = false;
        for (let j = 0; j <= n; j++) {
          if (reach[j] || (j > 0 && before && s[j - 1] === '/')) {
            next[j] = 1;
            any = true;
          }
          if (reach[j]) before = true;
        }
        break;
      }
    }
    if (!any) return false;
    reach = next;
  }
  return reach[n] === 1;
}
