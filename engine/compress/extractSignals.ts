/**
 * The engineering signals a compressed text must keep (spec "Compression": decisions, constraints,
 * failures, verification, remaining risks, exact paths, symbols), found by deterministic line and
 * sentence patterns. Nothing here paraphrases: every entry is verbatim (trimmed) input text.
 */

/** Signals of one text. Every list is deduplicated and in first-seen order. */
export interface Signals {
  /** File paths as written, with an optional `:line[:col]` suffix; never URLs. */
  paths: string[];
  /** Code-looking names, call parentheses dropped: `foo()`, `Foo.bar`, snake_case, CamelCase, `backticked` (one word). */
  symbols: string[];
  failures: string[];
  decisions: string[];
  constraints: string[];
  /** Commands run and their pass/fail result lines. */
  verification: string[];
  risks: string[];
}

/** The line-level kinds of signal, in the priority order compression keeps them. */
export type SignalKind = 'failures' | 'decisions' | 'constraints' | 'verification' | 'risks';

/** The kinds in priority order; compression iterates this rather than its own list. */
export const SIGNAL_KINDS: readonly SignalKind[] = ['failures', 'decisions', 'constraints', 'verification', 'risks'];

const TOOL = String.raw`(?:npx\s+|pnpm\s+exec\s+)?(?:npm|pnpm|yarn|npx|pytest|python3?\s+-m\s+pytest|go\s+(?:test|vet|build)|cargo|make(?!\s+(?:sure|it|the|a|an|this|that|them|sense)\b)|tsc|vitest|jest)`;
const PATTERNS: Readonly<Record<SignalKind, readonly RegExp[]>> = {
  failures: [
    /\b(?:errors?|failed|failing|failures?|fail|traceback|exceptions?|assert(?:ion)?(?:error)?|panic(?:ked)?|fatal|segfault|crash(?:ed)?|not ok)\b/i,
    /\bexit(?:ed)?(?: with)? (?:code|status)\s*(?:[1-9]\d*|!= ?0)/i,
    /\b[A-Z]\w*(?:Error|Exception)\b|[✗✕✘×]/,
  ],
  decisions: [/\b(?:decided|decide to|chose|choose to|will use|switched to|instead of|root cause|because|caused by|fixed by|the fix|opted)\b|\bfix(?:ed)?:/i],
  constraints: [/\b(?:must(?: not)?|mustn't|never|always|do not|don't|required|requires?|only|shall not)\b/i],
  verification: [
    /^\s*\$ \S/,
    new RegExp(String.raw`(?:^\s*(?:>\s*)?|\x60|\b(?:ran|run|running|rerun|re-ran|executed|via)\s+\x60?)${TOOL}(?:\s+[^\s\x60]+)+`, 'i'),
    /\b\d+\s+(?:passed|passing|failed|failing|skipped)\b|\btest result:|\bexit(?:ed)?(?: with)? (?:code|status) \d/i,
    /^\s*(?:PASS|FAIL|FAILED|--- (?:PASS|FAIL))\b|^\s*[✓✔]|^ok\s+\S+\s+\(?[\d.]+m?s/,
  ],
  risks: [/\b(?:TODO|FIXME|XXX|HACK|risks?|risky|open question|not yet|untested|unverified|follow[- ]up|flaky|unclear|might break)\b/i],
};
/** "0 failed", "no errors": counts of nothing are not failures. */
const NOTHING_FAILED = /\b(?:0|no|zero|without)\s+(?:errors?|failures?|failed|failing|exceptions?)\b/gi;

/** Kinds of one line or sentence, in priority order; an entry may carry several kinds. */
export function signalKindsOf(unit: string): SignalKind[] {
  return SIGNAL_KINDS.filter((kind) => {
    const probe = kind === 'failures' ? unit.replace(NOTHING_FAILED, '') : unit;
    return PATTERNS[kind].some((re) => re.test(probe));
  });
}

/**
 * Sentences of a prose text, split after `.`, `!` or `?` only before an upper-case or quoting
 * character, so "e.g. foo" and "src/a.ts:12" stay whole. Verbatim and trimmed.
 */
export function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+(?=[A-Z`"'([])/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Lines longer than this are prose paragraphs: they are classified sentence by sentence. */
const LONG_LINE = 200;
const URL = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'`<>)]+/gi;
const EXT = String.raw`(?:tsx?|jsx?|mjs|cjs|py|pyi|go|rs|java|kt|cs|c|h|cc|cpp|hpp|rb|php|swift|json|ya?ml|toml|md|sql|sh|css|scss|html|vue|svelte|lock|txt|ini|cfg|xml|gradle|proto)`;
const PATH = new RegExp(
  String.raw`(?<![\w.\/\\@+~-])(?:[A-Za-z]:\\(?:[\w.@+-]+\\)*[\w.@+-]+|(?:[A-Za-z]:|~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w.@+-]*|[\w@+-][\w.@+-]*\.${EXT}(?![\w(]))(?::\d+(?::\d+)?)?`,
  'g',
);
const BACKTICKED = /`([^`\n]{1,80})`/g;
const IDENT = /(?<![\w$.])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g;

function isPath(p: string): boolean {
  if (/^[A-Za-z]:\\/.test(p)) return true;
  const bare = p.replace(/:\d+(?::\d+)?$/, '');
  if (!bare.includes('/')) return true;
  return /^(?:[A-Za-z]:|~|\.{1,2})?\//.test(bare) || /\.[A-Za-z][A-Za-z0-9]{0,7}$/.test(bare);
}

function isSymbol(token: string, call: boolean): boolean {
  if (call || /[A-Za-z0-9]_[A-Za-z0-9]|^_+[A-Za-z0-9]/.test(token) || /[a-z0-9][A-Z]|[A-Z]{2}[a-z]{2}/.test(token)) return true;
  const parts = token.split('.');
  return parts.length > 1 && parts.every((p) => p.length >= 2);
}

const blank = (s: string) => ' '.repeat(s.length);

/** Paths and symbols of one line, each in position order. */
function namesOf(line: string): { paths: string[]; symbols: string[] } {
  const paths: string[] = [];
  let masked = line.replace(URL, blank).replace(PATH, (m) => {
    const p = m.replace(/[.,;:]+$/, '');
    if (!isPath(p)) return m;
    paths.push(p);
    return blank(m);
  });
  const found: { at: number; name: string }[] = [];
  masked = masked.replace(BACKTICKED, (m, inner: string, at: number) => {
    const name = inner.trim().replace(/\(.*\)$/, '');
    if (!/^[A-Za-z_$@#:][^\s]*$/.test(name)) return m;
    found.push({ at, name });
    return blank(m);
  });
  for (const m of masked.matchAll(IDENT)) {
    const after = masked.slice(m.index + m[0].length);
    const call = after.startsWith('(') && !after.startsWith('(s)');
    if (isSymbol(m[0], call)) found.push({ at: m.index, name: m[0] });
  }
  found.sort((a, b) => a.at - b.at);
  return { paths, symbols: found.map((f) => f.name) };
}

/**
 * Extract the signals of `text`. Deterministic and pure: the same text always gives the same
 * lists. Short lines are the unit; long prose lines are split into sentences so one verbose
 * paragraph cannot make a whole page a "decision".
 */
export function extractSignals(text: string): Signals {
  const sets = {
    paths: new Set<string>(),
    symbols: new Set<string>(),
    failures: new Set<string>(),
    decisions: new Set<string>(),
    constraints: new Set<string>(),
    verification: new Set<string>(),
    risks: new Set<string>(),
  };
  for (const line of text.split(/\r?\n/)) {
    const names = namesOf(line);
    for (const p of names.paths) sets.paths.add(p);
    for (const s of names.symbols) sets.symbols.add(s);
    const trimmed = line.trim();
    const units = trimmed.length > LONG_LINE ? sentencesOf(trimmed) : trimmed ? [trimmed] : [];
    for (const unit of units) for (const kind of signalKindsOf(unit)) sets[kind].add(unit);
  }
  return {
    paths: [...sets.paths],
    symbols: [...sets.symbols],
    failures: [...sets.failures],
    decisions: [...sets.decisions],
    constraints: [...sets.constraints],
    verification: [...sets.verification],
    risks: [...sets.risks],
  };
}
