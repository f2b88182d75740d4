/**
 * Needed-reference recall (DESIGN.md "Metrics"): the file paths and code symbols a recorded action
 * names, and whether a built context holds them. Pure and deterministic.
 *
 * What counts as named (the action = the step's assistant text and its tool calls' arguments):
 * - a FILE PATH is a word with a `/` or `\` separator whose last segment has an extension
 *   (`src/a.ts`, `C:\repo\a.go`), or a bare `name.ext` with a source-file extension (`grid.py`);
 *   the whole value of a path argument (`file_path`, `path`, …) is one path, spaces included;
 *   URLs, globs and `file:line` suffixes are not part of it;
 * - a SYMBOL is a code-shaped identifier outside paths: camelCase (`saveToken`, `RectilinearGrid`),
 *   snake_case with a letter (`max_tokens`), or a name of 4+ characters directly followed by `(`;
 * - arguments that carry NEW content (`content`, `new_string`, the `+` lines of a patch) name
 *   nothing: the agent writes them rather than needing them; working-directory and numeric options
 *   are not references either.
 * What counts as held: a path when the context contains its last two segments (or its only one)
 * with `/`, `\` or `\\` (JSON-escaped) between them, as a whole path component; a symbol when the
 * context contains it as a whole word.
 */

export interface Reference {
  kind: 'path' | 'symbol';
  /** Paths with `/` separators, without `./` and `:line`; symbols as written. */
  value: string;
}

const SOURCE_EXTENSIONS = new Set(
  'ts tsx mts cts js jsx mjs cjs json py rb go rs java kt kts scala c h cc cpp hpp cs swift php vue svelte css scss less html md yml yaml toml sql sh ps1 ex exs erl clj dart lua zig templ proto ini cfg env lock txt xml gradle'.split(' '),
);
const PATH_KEYS = new Set(['file_path', 'filePath', 'path', 'notebook_path', 'file', 'filename', 'target_file']);
const NEW_CONTENT_KEYS = new Set(['content', 'new_string', 'newString', 'new_str', 'new_source', 'file_text', 'newText']);
const SKIP_KEYS = new Set(['workdir', 'cwd', 'timeout', 'timeout_ms', 'session_id', 'max_output_tokens', 'yield_time_ms', 'offset', 'limit', 'replace_all', 'output_mode', 'status', 'taskId', 'subagent_type', 'head_limit', 'max_results']);
const STOP_SYMBOLS = new Set(['JavaScript', 'TypeScript', 'GitHub', 'PowerShell', 'OneDrive', 'YouTube', 'LinkedIn', 'DevOps', 'iPhone', 'macOS', 'iOS']);

const WORD_SPLIT = /[\s"'`()<>[\]{},;|=]+/;
const FILE_SEGMENT = /^[\w@+-][\w.@+-]*\.([A-Za-z][A-Za-z0-9]{0,7})$/;
const IDENT = /[A-Za-z_$][\w$]*/g;

/** A word as a normalized file path, or undefined when it is not one. */
function asPath(word: string, wholeValue = false): string | undefined {
  let w = word.replace(/^[*_~@]+|[*_~]+$/g, '').replace(/[.,;:!?)]+$/, '');
  w = w.replace(/:\d+(?::\d+)?$/, '').replace(/[.,;:!?)]+$/, '');
  if (w.length < 3 || w.includes('://') || /[*?]/.test(w) || (!wholeValue && /\s/.test(w))) return undefined;
  const p = w.replace(/\\+/g, '/').replace(/^(\.\/)+/, '');
  const last = p.slice(p.lastIndexOf('/') + 1);
  const ext = FILE_SEGMENT.exec(last)?.[1];
  if (ext === undefined || !/[A-Za-z]/.test(last)) return undefined;
  return p.includes('/') || SOURCE_EXTENSIONS.has(ext.toLowerCase()) ? p : undefined;
}

function isCodeShaped(name: string, calledAfter: boolean): boolean {
  if (name.length < 3 || STOP_SYMBOLS.has(name)) return false;
  if (/[a-z0-9][A-Z]/.test(name) && /[a-z]/.test(name)) return true;
  if (/^_*[A-Za-z0-9]+(?:_[A-Za-z0-9]+)+_*$/.test(name) && /[A-Za-z]/.test(name)) return true;
  return calledAfter && name.length >= 4;
}

/** Paths and (unless `symbols` is false) symbols named in free text, appended to `out`. */
export function referencesIn(text: string, out: Reference[] = [], symbols = true): Reference[] {
  for (const word of text.split(WORD_SPLIT)) {
    if (word === '' || word.includes('://')) continue;
    const path = asPath(word);
    if (path !== undefined) {
      out.push({ kind: 'path', value: path });
      continue;
    }
    if (!symbols || word.includes('/') || word.includes('\\')) continue;
    for (const m of word.matchAll(IDENT)) if (isCodeShaped(m[0], false)) out.push({ kind: 'symbol', value: m[0] });
  }
  // Splitting removed the parentheses, so calls (`name(`) are found on the whole text.
  if (symbols) for (const m of text.matchAll(/([A-Za-z_$][\w$]{3,})\(/g)) if (isCodeShaped(m[1] as string, true)) out.push({ kind: 'symbol', value: m[1] as string });
  return out;
}

/** The lines of a patch that name existing material: file headers, context and removed lines. */
function patchReferences(text: string, out: Reference[]): void {
  for (const line of text.split('\n')) {
    const header = /^(?:\*\*\* (?:Add|Update|Delete) File:|\*\*\* Move to:|---|\+\+\+)\s+(?:[ab]\/)?(.+)$/.exec(line);
    if (header) {
      const p = asPath((header[1] as string).trim(), true);
      if (p !== undefined) out.push({ kind: 'path', value: p });
    } else if (line.startsWith('-') || line.startsWith(' ')) referencesIn(line.slice(1), out);
  }
}

const isPatch = (s: string) => s.includes('*** Begin Patch') || /^(?:diff --git |--- \S)/m.test(s);

function walk(value: unknown, key: string | undefined, out: Reference[]): void {
  if (key !== undefined && (SKIP_KEYS.has(key) || NEW_CONTENT_KEYS.has(key))) return;
  if (typeof value === 'string') {
    if (key !== undefined && PATH_KEYS.has(key)) {
      const p = asPath(value.trim(), true);
      if (p !== undefined) out.push({ kind: 'path', value: p });
    } else if (isPatch(value)) patchReferences(value, out);
    else referencesIn(value, out);
  } else if (Array.isArray(value)) for (const v of value) walk(v, key, out);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) walk(v, k, out);
}

/** The distinct references an action names, in first-seen order (paths first within a text). */
export function actionReferences(texts: readonly string[], calls: readonly { arguments: string }[]): Reference[] {
  const out: Reference[] = [];
  for (const t of texts) referencesIn(t, out);
  for (const c of calls) {
    let args: unknown;
    try {
      args = JSON.parse(c.arguments);
    } catch {
      args = c.arguments;
    }
    walk(args, undefined, out);
  }
  const seen = new Set<string>();
  return out.filter((r) => {
    const k = `${r.kind}:${r.value}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const isWordChar = (c: string | undefined) => c !== undefined && /[\w$]/.test(c);
const isPathChar = (c: string | undefined) => c !== undefined && /[\w.@+~-]/.test(c);

/** Whether `needle` occurs in `text` with acceptable characters on both sides. */
function occurs(text: string, needle: string, ok: (before: string | undefined, after: string | undefined, afterNext: string | undefined) => boolean): boolean {
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) {
    const end = i + needle.length;
    if (ok(text[i - 1], text[end], text[end + 1])) return true;
  }
  return false;
}

/** Whether `context` holds `ref` (rules in the module comment). */
export function holdsReference(context: string, ref: Reference): boolean {
  if (ref.kind === 'symbol') return occurs(context, ref.value, (b, a) => !isWordChar(b) && !isWordChar(a));
  const segments = ref.value.split('/').filter((s) => s !== '');
  const tail = segments.slice(-2);
  const forms = tail.length === 1 ? [tail[0] as string] : [tail.join('/'), tail.join('\\'), tail.join('\\\\')];
  return forms.some((form) =>
    occurs(context, form, (b, a, a2) => !isPathChar(b) && !(a !== undefined && /[\w/\\-]/.test(a)) && !(a === '.' && a2 !== undefined && /\w/.test(a2))),
  );
}

/** How many of `refs` the context holds. */
export function heldReferences(context: string, refs: readonly Reference[]): number {
  let held = 0;
  for (const r of refs) if (holdsReference(context, r)) held++;
  return held;
}

/** Normalized file paths named in `text` (for item provenance), at most `max`. */
export function pathsIn(text: string, max = 50): string[] {
  const out = new Set<string>();
  for (const r of referencesIn(text, [], false)) {
    if (r.kind === 'path') out.add(r.value);
    if (out.size >= max) break;
  }
  return [...out];
}
