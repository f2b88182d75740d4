/**
 * What a recorded read read, to tell a re-read (`[replay-rereads]`): the file by its last three
 * path segments (any separator) and the line range when the call records one, else the whole file:
 * - a read tool: `offset`/`limit` (from `offset`, `limit` lines; `offset` alone to the end),
 *   `view_range` (`[from, to]`, `to` -1 for the end);
 * - a shell read of one file: `sed -n 'A,Bp'` (`'Ap'` one line, `$` the end), `head -n N` /
 *   `head -N` / `-TotalCount N` / `-First N` (lines 1 to N), else the whole file; a shell read
 *   that names several files, or pipes into a filter (`grep`, `awk`, …), or uses `tail`, is keyed
 *   by its whole command (only the same command re-reads it);
 * - a shell "read" that writes (`cat > f`, `cat << EOF > f`) reads nothing: it edits `f`;
 * - an edit changes the file of its path argument and the files its patch's headers name.
 * Pure.
 */
import { pathsInto } from './actionPaths';
import type { ToolCallInfo } from './classifyToolCall';
import { argumentsObject } from '../jsonText';

export interface LineRange {
  from: number;
  /** Inclusive; `Infinity` for the end of the file. */
  to: number;
}

export interface ReadTarget {
  /** The file (last three segments), or `cmd:` and the command for a read keyed by its command. */
  key: string;
  range: LineRange;
}

const WHOLE: LineRange = { from: 1, to: Infinity };
const PATH_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'file', 'filename', 'target_file'];

/** A file path by its last three segments, `/`-separated. */
const fileKey = (path: string) => path.replace(/\\+/g, '/').split('/').filter((s) => s !== '' && s !== '.').slice(-3).join('/');

/** Whether `outer` covers `inner`. */
export const covers = (outer: LineRange, inner: LineRange) => outer.from <= inner.from && inner.to <= outer.to;

const WRITES = /(?:^|\s)(?:>>?|<<-?)\s*\S/;

/** Whether a shell read writes a file instead (a redirect or here-document). */
export const writesInstead = (info: ToolCallInfo) => info.command !== undefined && WRITES.test(info.command);

const parseArgs = (text: string): Record<string, unknown> => argumentsObject(text) ?? {};

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : undefined);

function shellRange(command: string): LineRange | 'command' {
  if (/\|\s*(?!sed\b|head\b|nl\b|cat\b|select-object\b)[\w.-]+/i.test(command) || /\btail\b|\bawk\b/.test(command)) return 'command';
  const sed = /\bsed\s+-n\s+['"]?(\d+)(?:,(\d+|\$))?p/.exec(command);
  if (sed) return { from: Number(sed[1]), to: sed[2] === undefined ? Number(sed[1]) : sed[2] === '$' ? Infinity : Number(sed[2]) };
  const head = /\bhead\s+(?:-n\s*|-)(\d+)\b/.exec(command) ?? /-(?:TotalCount|First|Head)\s+(\d+)\b/i.exec(command);
  if (head) return { from: 1, to: Number(head[1]) };
  return WHOLE;
}

/** What a read call read (see the module comment); undefined when it names no file. */
export function readTarget(call: { arguments: string }, info: ToolCallInfo): ReadTarget | undefined {
  if (info.command !== undefined) {
    const paths = [...new Set(pathsInto(info.command))];
    if (paths.length === 0) return undefined;
    const range = shellRange(info.command);
    if (paths.length > 1 || range === 'command') return { key: `cmd:${info.command.replace(/\s+/g, ' ').trim()}`, range: WHOLE };
    return { key: fileKey(paths[0] as string), range };
  }
  const args = parseArgs(call.arguments);
  const path = PATH_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (path === undefined) return undefined;
  const view = args['view_range'];
  if (Array.isArray(view) && view.length === 2) {
    const [a, b] = view.map(num);
    if (a !== undefined && b !== undefined) return { key: fileKey(path), range: { from: Math.max(1, a), to: b < 0 ? Infinity : b } };
  }
  const offset = num(args['offset']);
  const limit = num(args['limit']);
  const from = Math.max(1, offset ?? 1);
  return { key: fileKey(path), range: { from, to: limit !== undefined && limit > 0 ? from + limit - 1 : Infinity } };
}

const PATCH_FILE = /^(?:\*\*\* (?:Add|Update|Delete) File:|\*\*\* Move to:|\+\+\+)\s+(?:b\/)?(.+)$/gm;

/** The files an edit call changes, by `fileKey`: its path argument and its patch's file headers. */
export function editedFiles(call: { arguments: string }): string[] {
  const args = parseArgs(call.arguments);
  const out = PATH_KEYS.flatMap((k) => (typeof args[k] === 'string' ? [args[k] as string] : []));
  const patches = Object.keys(args).length > 0 ? Object.values(args).filter((v): v is string => typeof v === 'string') : [call.arguments];
  for (const p of patches) for (const m of p.matchAll(PATCH_FILE)) out.push((m[1] as string).trim());
  return [...new Set(out.filter((p) => p !== '/dev/null').map(fileKey))];
}

/** The files a shell command writes by a redirect (`> f`, `>> f`). */
export function redirectedFiles(command: string): string[] {
  return [...new Set([...command.matchAll(/(?:^|[^\d&])>>?\s*['"]?([^\s'"|;&<>]+)/g)].map((m) => fileKey(m[1] as string)))];
}
