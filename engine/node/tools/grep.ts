import { constants } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { z } from 'zod';
import { confineArg, ioReason, parseArgs } from './args';
import { realInside } from './confine';
import { compileGlob, MAX_GLOB_CHARS } from './glob';
import { BINARY_SNIFF_BYTES, looksBinary } from './bytes';
import { RegexWorkers, SliceCancelled, SliceTimeout, type SliceFile, type SliceHit } from './regexWorker';
import { toolError, type GrepHit, type GrepMeta, type ToolContext, type ToolEnv, type ToolResult, type WorkspaceTool } from './types';
import { walk } from './walk';

const GREP = 'grep';
const MAX_PATTERN_CHARS = 500;
const GREP_DEFAULT_RESULTS = 100;
const GREP_MAX_RESULTS = 1000;
/** Characters of a matching line shown; the rest is cut with "…". */
const GREP_LINE_CHARS = 300;
/** Text matched in one guarded slice (and most files in one). */
const SLICE_BYTES = 512 * 1024;
const SLICE_FILES = 256;

const schema = z.strictObject({
  pattern: z.string().min(1).max(MAX_PATTERN_CHARS),
  path: z.string().max(4096).optional(),
  glob: z.string().min(1).max(MAX_GLOB_CHARS).optional(),
  max_results: z.number().int().min(1).max(GREP_MAX_RESULTS).optional(),
  fixed: z.boolean().optional(),
  ignore_case: z.boolean().optional(),
});

type Candidate = SliceFile;

interface Found extends GrepHit, SliceHit {}

/**
 * `grep`: lines of workspace files that match a JavaScript regular expression (or, with
 * `fixed: true`, contain a literal string), as `file:line: text`, in file-walk order (depth-first,
 * names in code-unit order) then line order, so the same tree always gives the same answer.
 * Guarded against pathological patterns: the pattern is length-capped and regular expressions are
 * matched in a worker thread (`RegexWorkers`), slice by slice, never on the host's thread: a slice
 * that runs past `regexSliceMs` terminates the worker, so a catastrophic pattern ends as an error
 * while the host goes on serving (`[grep-off-thread]`), and a cancelled search stops its match at
 * once; the whole search also has a wall-clock budget. Literal search never uses a RegExp and runs
 * here.
 */
export function grepTool(env: ToolEnv): WorkspaceTool {
  const workers = new RegexWorkers(env.limits.regexSliceMs);
  return {
    spec: {
      name: GREP,
      description:
        `Search workspace files for lines matching a JavaScript regular expression (or a literal string with fixed: true). ` +
        `Returns "file:line: text" lines in a stable order, at most max_results (default ${GREP_DEFAULT_RESULTS}). ` +
        `Skips .git, node_modules, .strata, binary files and files over ${env.limits.grepMaxFileBytes} bytes.`,
      parameters: {
        type: 'object',
        properties: {
          pattern: { type: 'string', description: `Regular expression (JavaScript syntax, no slashes or flags), or the literal text when fixed is true. At most ${MAX_PATTERN_CHARS} characters.` },
          path: { type: 'string', description: 'File or folder to search, relative to the workspace root. Default: the root.' },
          glob: { type: 'string', description: 'Only files matching this glob: without "/" it matches the file name ("*.ts"), with "/" the root-relative path ("src/**/*.ts"). Supports *, **, ?, [abc], {a,b}.' },
          max_results: { type: 'integer', minimum: 1, maximum: GREP_MAX_RESULTS, description: `Most matching lines to return. Default ${GREP_DEFAULT_RESULTS}.` },
          fixed: { type: 'boolean', description: 'Treat pattern as literal text, not a regular expression. Default false.' },
          ignore_case: { type: 'boolean', description: 'Match without regard to case. Default false.' },
        },
        required: ['pattern'],
        additionalProperties: false,
      },
    },
    run: (args, ctx) => grep(env, workers, args, ctx),
  };
}

async function grep(env: ToolEnv, workers: RegexWorkers, args: unknown, ctx: ToolContext = {}): Promise<ToolResult> {
  const parsed = parseArgs(GREP, schema, args);
  if (!parsed.ok) return parsed.result;
  const { pattern } = parsed.value;
  const fixed = parsed.value.fixed ?? false;
  const ignoreCase = parsed.value.ignore_case ?? false;
  const maxResults = parsed.value.max_results ?? GREP_DEFAULT_RESULTS;
  const requested = parsed.value.path ?? '.';

  // Literal search cannot backtrack: it runs here. A pattern is checked here and matched in the worker.
  const flags = ignoreCase ? 'i' : '';
  let test: ((line: string) => boolean) | undefined;
  if (fixed) {
    const needle = ignoreCase ? pattern.toLowerCase() : pattern;
    test = ignoreCase ? (line) => line.toLowerCase().includes(needle) : (line) => line.includes(needle);
  } else {
    try {
      new RegExp(pattern, flags);
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      return toolError(GREP, 'invalid_pattern', `Invalid regular expression ${JSON.stringify(pattern)}: ${reason}. Fix it, or pass fixed: true to search for the literal text.`);
    }
  }
  let globTest: ((relative: string) => boolean) | undefined;
  if (parsed.value.glob !== undefined) {
    const glob = compileGlob(parsed.value.glob);
    if (!glob.ok) return toolError(GREP, 'invalid_arguments', `Invalid arguments for grep:\n- glob: ${glob.reason}`);
    globTest = glob.test;
  }

  const target = await confineArg(GREP, env, requested);
  if (!target.ok) return target.result;
  const where = target.path;
  if (!where.exists) return toolError(GREP, 'not_found', `No such file or folder: ${JSON.stringify(requested)}.`, requested);
  let isDir: boolean;
  try {
    isDir = (await stat(where.absolute)).isDirectory();
  } catch (err) {
    return toolError(GREP, 'io_error', `Cannot search ${JSON.stringify(requested)}: ${ioReason(err)}.`, requested);
  }

  const startedAt = Date.now();
  const found: Found[] = [];
  const notes: string[] = [];
  let filesSearched = 0;
  let skippedLarge = 0;
  let stoppedBy: 'results' | 'files' | 'time' | undefined;
  let slice: Candidate[] = [];
  let sliceBytes = 0;

  const search = test ? undefined : workers.acquire();
  const matchLiterally = (literal: (line: string) => boolean, want: number): Found[] => {
    const out: Found[] = [];
    for (const c of slice) {
      for (let i = 0; i < c.lines.length; i++) {
        const line = c.lines[i] as string;
        if (literal(line)) {
          out.push({ file: c.relative, line: i + 1, text: line });
          if (out.length >= want) return out;
        }
      }
    }
    return out;
  };
  const matchSlice = async () => {
    const want = maxResults + 1 - found.length;
    const hits = test ? matchLiterally(test, want) : await (search as NonNullable<typeof search>).match(pattern, flags, slice, want, ctx.signal);
    found.push(...hits);
    slice = [];
    sliceBytes = 0;
    if (found.length > maxResults) stoppedBy = 'results';
  };

  /** Read one file into the slice (unless skipped); match the slice when it is full. */
  const add = async (absolute: string, relative: string) => {
    let text: Buffer;
    let handle: FileHandle | undefined;
    try {
      // Opened without following a link swapped in since the walk and without blocking on a FIFO,
      // then checked on the open file itself: what is read is the regular file that was checked.
      handle = await open(absolute, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
      const st = await handle.stat();
      if (!st.isFile()) return;
      if (st.size > env.limits.grepMaxFileBytes) {
        skippedLarge++;
        return;
      }
      text = await handle.readFile();
      // A file that grew past the cap between the check and the read is skipped as a large one.
      if (text.length > env.limits.grepMaxFileBytes) {
        skippedLarge++;
        return;
      }
    } catch {
      return;
    } finally {
      await handle?.close().catch(() => undefined);
    }
    if (looksBinary(text.subarray(0, BINARY_SNIFF_BYTES))) return;
    filesSearched++;
    const lines = text.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    slice.push({ relative, lines: lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l)) });
    sliceBytes += text.length;
    if (sliceBytes >= SLICE_BYTES || slice.length >= SLICE_FILES) await matchSlice();
  };

  try {
    if (!isDir) await add(where.absolute, where.relative);
    else {
      for await (const e of walk(where.absolute, where.relative, Number.POSITIVE_INFINITY, ctx.signal)) {
        if (ctx.signal?.aborted) break;
        if (e.kind !== 'file' && e.kind !== 'symlink') continue;
        if (globTest && !globTest(e.relative)) continue;
        if (e.kind === 'symlink') {
          // A linked file is searched under its link's name when its real path stays inside; linked folders are not entered.
          const real = await realInside(env.ws, e.absolute);
          if (real === undefined) continue;
          await add(real.absolute, e.relative);
        } else await add(e.absolute, e.relative);
        if (stoppedBy) break;
        if (filesSearched >= env.limits.grepMaxFiles) {
          stoppedBy = 'files';
          break;
        }
        if (Date.now() - startedAt > env.limits.grepBudgetMs) {
          stoppedBy = 'time';
          break;
        }
      }
    }
    if (!stoppedBy && slice.length > 0 && !ctx.signal?.aborted) await matchSlice();
  } catch (err) {
    if (err instanceof SliceCancelled) return toolError(GREP, 'cancelled', 'grep was cancelled.', requested);
    if (err instanceof SliceTimeout) {
      const partial = found.slice(0, maxResults).map(formatHit);
      const lines = [
        `The regular expression ${JSON.stringify(pattern)} ran longer than ${env.limits.regexSliceMs} ms on one slice of files and was stopped: it is probably catastrophic (nested quantifiers such as (a+)+ backtrack exponentially). ` +
          `Simplify it, or pass fixed: true to search for literal text.`,
      ];
      if (partial.length > 0) lines.push(`Matches found before it was stopped (${partial.length}):`, ...partial);
      return toolError(GREP, 'pattern_timeout', lines.join('\n'), requested);
    }
    return toolError(GREP, 'internal', `grep failed: ${err instanceof Error ? err.message : String(err)}.`, requested);
  } finally {
    search?.release();
  }
  if (ctx.signal?.aborted) return toolError(GREP, 'cancelled', 'grep was cancelled.', requested);

  const hits = found.slice(0, maxResults);
  const meta: GrepMeta = { tool: GREP, pattern, fixed, path: where.relative, hits: [], filesSearched, truncated: stoppedBy !== undefined };
  const out: string[] = [];
  let bytes = 0;
  for (const h of hits) {
    const line = formatHit(h);
    const size = Buffer.byteLength(line) + 1;
    if (bytes + size > env.config.maxOutputBytes) {
      meta.truncated = true;
      notes.push(`[output capped at max_output_bytes (${env.config.maxOutputBytes} bytes) after ${out.length} matches]`);
      break;
    }
    out.push(line);
    meta.hits.push({ file: h.file, line: h.line });
    bytes += size;
  }
  if (stoppedBy === 'results') notes.push(`[stopped at max_results=${maxResults}; there are more matches: narrow the pattern, path or glob]`);
  if (stoppedBy === 'files') notes.push(`[stopped after searching ${filesSearched} files; narrow the path or glob]`);
  if (stoppedBy === 'time') notes.push(`[stopped after ${env.limits.grepBudgetMs} ms; results are partial: narrow the path or glob]`);
  if (skippedLarge > 0) notes.push(`[skipped ${skippedLarge} file${skippedLarge === 1 ? '' : 's'} larger than ${env.limits.grepMaxFileBytes} bytes]`);
  const shownPath = where.relative === '.' ? 'the workspace' : where.relative;
  if (out.length === 0) {
    return { content: [`No matches for ${JSON.stringify(pattern)} in ${shownPath} (${filesSearched} file${filesSearched === 1 ? '' : 's'} searched).`, ...notes].join('\n'), isError: false, meta };
  }
  return { content: [...out, ...notes].join('\n'), isError: false, meta };
}

function formatHit(h: Found): string {
  const chars = [...h.text.slice(0, GREP_LINE_CHARS * 2)];
  const text = chars.length > GREP_LINE_CHARS ? `${chars.slice(0, GREP_LINE_CHARS).join('')}…` : h.text;
  return `${h.file}:${h.line}: ${text}`;
}
