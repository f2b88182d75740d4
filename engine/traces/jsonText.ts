/**
 * Reading JSON and JSON Lines trace text with errors that point into the file. `JSON.parse` says
 * only "Unexpected end of JSON input" or, depending on the engine, a position or nothing; when it
 * fails, a small strict scanner walks the text again to find the offset of the first problem, so the
 * error names the line and column on every runtime. Pure: no Node built-ins.
 */
import { jsonNestingBeyond, MAX_JSON_NESTING } from '../text/jsonNesting';
import { TraceImportError } from './TraceEvent';

export { jsonNestingBeyond, MAX_JSON_NESTING };

export type JsonRecord = Record<string, unknown>;

export const isRecord = (v: unknown): v is JsonRecord => typeof v === 'object' && v !== null && !Array.isArray(v);
export const asString = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
/** A finite non-negative count, or 0. */
/**
 * A recorded tool call's arguments read as JSON, or the text itself when it is not JSON or nests
 * deeper than {@link MAX_JSON_NESTING} (which the replay's walks over it would overflow the stack
 * on: `[trace-nesting]`); the depth is found in one pass without recursion before anything is
 * parsed. The one parse every part of the replay uses.
 */
export function parsedArguments(text: string): unknown {
  if (jsonNestingBeyond(text) >= 0) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The arguments as an object, or undefined when they are not a JSON object (or nest too deep). */
export function argumentsObject(text: string): Record<string, unknown> | undefined {
  const v = parsedArguments(text);
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

export const asCount = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** 1-based line and column of `offset` in `text` (counted from `start`, which is at `line`, column 1). */
export function lineColumnAt(text: string, offset: number, start = 0, line = 1): { line: number; column: number } {
  let lineStart = start;
  for (let i = text.indexOf('\n', start); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

const TRUNCATED = ' (the file may be truncated)';
const MAX_DEPTH = 5_000;


/**
 * The longest JSON Lines line read (`[trace-line-cap]`): a longer one is skipped without being held
 * whole or parsed, and reported. Real sessions stay far below it (the largest line of the shared
 * traces is 183 KiB; Claude Code lines carrying big tool results or images run to a few MiB).
 */
export const MAX_TRACE_LINE_BYTES = 16 * 1024 * 1024;


/** A refusal of JSON nested deeper than {@link MAX_JSON_NESTING}, at `line` and `column`. */
function tooDeep(file: string, line: number, column: number): TraceImportError {
  return new TraceImportError(file, line, `JSON nested more than ${MAX_JSON_NESTING} levels deep; no trace the importers read nests that deep, so it is refused rather than read`, column);
}

class ScanFailure {
  constructor(
    readonly offset: number,
    readonly problem: string,
  ) {}
}

/**
 * The first syntax problem of `text.slice(start, end)` read as one JSON value, or undefined when it
 * is valid. Only run after `JSON.parse` failed, so it favours clear messages over speed.
 */
export function findJsonSyntaxError(text: string, start = 0, end = text.length): { offset: number; problem: string } | undefined {
  const fail = (offset: number, problem: string): never => {
    throw new ScanFailure(offset, problem);
  };
  const ws = (i: number): number => {
    while (i < end) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) break;
      i++;
    }
    return i;
  };
  const str = (i: number): number => {
    for (i++; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) return i + 1;
      if (c < 0x20) fail(i, 'control character inside a string');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i, 'bad \\u escape in a string');
          i += 5;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail(i, `bad escape \\${e ?? ''} in a string`);
      }
    }
    return fail(end, `unterminated string${TRUNCATED}`);
  };
  const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  const value = (i: number, depth: number): number => {
    i = ws(i);
    if (i >= end) fail(end, `unexpected end of input${TRUNCATED}`);
    if (depth > MAX_DEPTH) fail(i, 'nesting too deep');
    const c = text[i];
    if (c === '"') return str(i);
    if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      i = ws(i + 1);
      if (text[i] === close) return i + 1;
      for (;;) {
        if (c === '{') {
          if (i >= end) fail(end, `unexpected end of input${TRUNCATED}`);
          if (text[i] !== '"') fail(i, 'expected a double-quoted property name');
          i = ws(str(i));
          if (i >= end) fail(end, `unexpected end of input${TRUNCATED}`);
          if (text[i] !== ':') fail(i, "expected ':' after a property name");
          i++;
        }
        i = ws(value(i, depth + 1));
        if (i >= end) fail(end, `unexpected end of input${TRUNCATED}`);
        if (text[i] === close) return i + 1;
        if (text[i] !== ',') fail(i, `expected ',' or '${close}'`);
        i = ws(i + 1);
      }
    }
    for (const lit of ['true', 'false', 'null']) if (text.startsWith(lit, i)) return i + lit.length;
    NUMBER.lastIndex = i;
    if (NUMBER.test(text)) return NUMBER.lastIndex;
    return fail(i, `unexpected character ${JSON.stringify(c)}`);
  };
  try {
    const after = ws(value(start, 0));
    if (after < end) fail(after, 'unexpected text after the JSON value');
    return undefined;
  } catch (e) {
    if (e instanceof ScanFailure) return { offset: e.offset, problem: e.problem };
    throw e;
  }
}

/** Where `JSON.parse` says it failed, for when the scanner finds nothing (it should not happen). */
function reportedOffset(error: unknown, fallback: number): { offset: number; problem: string } {
  const message = error instanceof Error ? error.message : String(error);
  const at = /position (\d+)/.exec(message);
  return { offset: at ? Number(at[1]) : fallback, problem: message };
}

/** A whole JSON document, or a {@link TraceImportError} at the line and column of the first problem. */
export function parseJsonDocument(text: string, file: string): unknown {
  if (text.trim() === '') throw new TraceImportError(file, 1, 'the file is empty');
  const deep = jsonNestingBeyond(text);
  if (deep !== -1) {
    const { line, column } = lineColumnAt(text, deep);
    throw tooDeep(file, line, column);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const found = findJsonSyntaxError(text) ?? reportedOffset(error, text.length);
    const { line, column } = lineColumnAt(text, found.offset);
    throw new TraceImportError(file, line, `not valid JSON: ${found.problem}`, column);
  }
}

/** One record of a JSON Lines file. */
export interface JsonLine {
  /** 1-based line number. */
  line: number;
  value: JsonRecord;
}

/**
 * The records of a JSON Lines text, blank lines skipped (`\r\n` endings accepted). A line that is
 * not valid JSON, or not a JSON object, is a {@link TraceImportError} naming its line and column;
 * a broken last line says the file may be truncated.
 */
export function parseJsonLines(text: string, file: string): JsonLine[] {
  const out: JsonLine[] = [];
  let line = 0;
  for (let start = 0; start < text.length; ) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    line++;
    const raw = text.slice(start, end);
    start = end + 1;
    const parsed = parseJsonLine(raw, file, line, () => nl === -1 || text.slice(start).trim() === '');
    if (parsed) out.push(parsed);
  }
  return out;
}

/**
 * One line of a JSON Lines text (`line` its 1-based number; `isLast`, asked only for an error,
 * whether nothing follows it), undefined when blank; otherwise as {@link parseJsonLines} reads it,
 * with the same errors.
 */
export function parseJsonLine(raw: string, file: string, line: number, isLast: () => boolean): JsonLine | undefined {
  if (raw.trim() === '') return undefined;
  const deep = jsonNestingBeyond(raw);
  if (deep !== -1) throw tooDeep(file, line, deep + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    const found = findJsonSyntaxError(raw) ?? reportedOffset(error, raw.length);
    const hint = isLast() && !found.problem.includes('truncated') ? ' (last line: the file may be truncated)' : '';
    throw new TraceImportError(file, line, `line is not valid JSON: ${found.problem}${hint}`, found.offset + 1);
  }
  if (!isRecord(value)) throw new TraceImportError(file, line, `line is a JSON ${Array.isArray(value) ? 'array' : typeof value}, not an object`);
  return { line, value };
}

/** JSON Lines as text, or as records parsed already (a live session parses each line once, as it arrives). */
export type JsonLinesInput = string | readonly JsonLine[];

/** The records of `input`: parsed from text ({@link parseJsonLines}), or as given. */
export function jsonLinesOf(input: JsonLinesInput, file: string): readonly JsonLine[] {
  return typeof input === 'string' ? parseJsonLines(input, file) : input;
}

/** Parsed records as JSON Lines text again, each on its own line number (blank lines between). */
export function jsonLinesText(records: readonly JsonLine[]): string {
  const parts: string[] = [];
  let lines = 0;
  for (const r of records) {
    parts.push('\n'.repeat(Math.max(0, r.line - 1 - lines)), JSON.stringify(r.value), '\n');
    lines = r.line;
  }
  return parts.join('');
}

/**
 * The 1-based line where each element of an array in a valid JSON document starts: the array under
 * top-level key `key`, or the root array when `key` is undefined. For source lines of JSON-document
 * traces; one pass over the text, strings skipped.
 */
export function arrayElementLines(text: string, key?: string): number[] {
  const lines: number[] = [];
  const targetDepth = key === undefined ? 1 : 2;
  let line = 1;
  let depth = 0;
  let lastKey: string | undefined;
  let inTarget = false;
  let awaiting = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) {
      line++;
      continue;
    }
    if (c === 0x20 || c === 0x09 || c === 0x0d) continue;
    if (awaiting && c !== 0x5d) lines.push(line);
    awaiting = false;
    if (c === 0x22) {
      const str = scanString(text, i);
      if (depth === 1) lastKey = str.key;
      i = str.end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      depth++;
      if (c === 0x5b && depth === targetDepth && (key === undefined || lastKey === key) && !inTarget && lines.length === 0) {
        inTarget = true;
        awaiting = true;
      }
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      if (inTarget && depth === targetDepth) return lines;
      depth--;
      continue;
    }
    if (c === 0x2c && inTarget && depth === targetDepth) awaiting = true;
  }
  return lines;
}

/**
 * The JSON string that opens at `start` (a `"`): the index of its closing quote, and its raw text
 * when it is an object key (followed by `:`). Escapes are skipped, not decoded.
 */
function scanString(text: string, start: number): { end: number; key: string | undefined } {
  let i = start + 1;
  for (; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
  let j = i + 1;
  while (j < text.length && /\s/.test(text[j] ?? '')) j++;
  return { end: i, key: text[j] === ':' ? text.slice(start + 1, i) : undefined };
}

/**
 * The keys of the root object of JSON `text` whose value is an array, read without parsing: format
 * detection looks at a pretty-printed (or truncated) document this way, whose first line is just
 * `{`. Empty when the root is not an object. One pass, strings skipped.
 */
export function rootArrayKeys(text: string): Set<string> {
  const keys = new Set<string>();
  let depth = 0;
  let lastKey: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const str = scanString(text, i);
      if (depth === 1) lastKey = str.key;
      i = str.end;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (depth === 0 && c === 0x5b) return keys;
      if (depth === 1 && c === 0x5b && lastKey !== undefined) keys.add(lastKey);
      depth++;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return keys;
    }
  }
  return keys;
}

/** An ISO-8601 time from recorded ISO text or epoch time (milliseconds, or seconds when it is clearly seconds). */
export function isoTime(v: unknown): string | undefined {
  let ms: number;
  if (typeof v === 'number' && Number.isFinite(v)) ms = v < 1e11 ? v * 1000 : v;
  else if (typeof v === 'string' && v.trim() !== '') ms = Date.parse(v);
  else return undefined;
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : undefined;
}

/** Milliseconds of a recorded time, or undefined. */
export function timeMs(v: unknown): number | undefined {
  const iso = isoTime(v);
  return iso === undefined ? undefined : Date.parse(iso);
}
