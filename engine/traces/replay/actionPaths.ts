/**
 * The file paths a recorded action or observation names, for item provenance (`ItemInput.files`,
 * which the engine's retrieval matches on). Pure and deterministic. Recall does not use names: it
 * compares content (`contentRecall.ts`, `[replay-recall]`).
 *
 * What counts as named (the action = the step's assistant text and its tool calls' arguments): a
 * FILE PATH is a word with a `/` or `\` separator whose last segment has an extension (`src/a.ts`,
 * `C:\repo\a.go`), or a bare `name.ext` with a source-file extension (`grid.py`); the whole value
 * of a path argument (`file_path`, `path`, …) is one path, spaces included; URLs, globs and
 * `file:line` suffixes are not part of it. Arguments that carry NEW content (`content`,
 * `new_string`, the `+` lines of a patch) name nothing: the agent writes them rather than needing
 * them; working-directory and numeric options are not references either. Paths are given with `/`
 * separators, without `./` and `:line`.
 */
import { parsedArguments } from '../jsonText';

const SOURCE_EXTENSIONS = new Set(
  'ts tsx mts cts js jsx mjs cjs json py rb go rs java kt kts scala c h cc cpp hpp cs swift php vue svelte css scss less html md yml yaml toml sql sh ps1 ex exs erl clj dart lua zig templ proto ini cfg env lock txt xml gradle'.split(' '),
);
const PATH_KEYS = new Set(['file_path', 'filePath', 'path', 'notebook_path', 'file', 'filename', 'target_file']);
/** Argument keys whose values are NEW content the agent writes (it does not need them). */
export const NEW_CONTENT_KEYS: ReadonlySet<string> = new Set(['content', 'new_string', 'newString', 'new_str', 'new_source', 'file_text', 'newText']);
const SKIP_KEYS = new Set(['workdir', 'cwd', 'timeout', 'timeout_ms', 'session_id', 'max_output_tokens', 'yield_time_ms', 'offset', 'limit', 'replace_all', 'output_mode', 'status', 'taskId', 'subagent_type', 'head_limit', 'max_results']);

const WORD_SPLIT = /[\s"'`()<>[\]{},;|=]+/;
const FILE_SEGMENT = /^[\w@+-][\w.@+-]*\.([A-Za-z][A-Za-z0-9]{0,7})$/;

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

/** Paths named in free text, appended to `out`. */
export function pathsInto(text: string, out: string[] = []): string[] {
  for (const word of text.split(WORD_SPLIT)) {
    if (word === '' || word.includes('://')) continue;
    const path = asPath(word);
    if (path !== undefined) out.push(path);
  }
  return out;
}

/** The lines of a patch that name existing material: file headers, context and removed lines. */
function patchPaths(text: string, out: string[]): void {
  for (const line of text.split('\n')) {
    const header = /^(?:\*\*\* (?:Add|Update|Delete) File:|\*\*\* Move to:|---|\+\+\+)\s+(?:[ab]\/)?(.+)$/.exec(line);
    if (header) {
      const p = asPath((header[1] as string).trim(), true);
      if (p !== undefined) out.push(p);
    } else if (line.startsWith('-') || line.startsWith(' ')) pathsInto(line.slice(1), out);
  }
}

/** Whether an argument text is a patch (Codex `apply_patch`, a unified diff). */
export const isPatch = (s: string) => s.includes('*** Begin Patch') || /^(?:diff --git |--- \S)/m.test(s);

function walk(value: unknown, key: string | undefined, out: string[]): void {
  if (key !== undefined && (SKIP_KEYS.has(key) || NEW_CONTENT_KEYS.has(key))) return;
  if (typeof value === 'string') {
    if (key !== undefined && PATH_KEYS.has(key)) {
      const p = asPath(value.trim(), true);
      if (p !== undefined) out.push(p);
    } else if (isPatch(value)) patchPaths(value, out);
    else pathsInto(value, out);
  } else if (Array.isArray(value)) for (const v of value) walk(v, key, out);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) walk(v, k, out);
}

/** The distinct paths an action names, in first-seen order. */
export function actionPaths(texts: readonly string[], calls: readonly { arguments: string }[]): string[] {
  const out: string[] = [];
  for (const t of texts) pathsInto(t, out);
  for (const c of calls) walk(parsedArguments(c.arguments), undefined, out);
  return [...new Set(out)];
}

/** Normalized file paths named in `text` (for item provenance), at most `max`. */
export function pathsIn(text: string, max = 50): string[] {
  const out = new Set<string>();
  for (const p of pathsInto(text)) {
    out.add(p);
    if (out.size >= max) break;
  }
  return [...out];
}
