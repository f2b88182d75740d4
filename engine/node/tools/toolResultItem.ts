import type { ToolCall } from '../../conversation/Message';
import type { ItemInput } from '../../items/createItem';
import { isTestCommand, parseCommandLine } from '../../runtime/commandLine';
import { PRE_RUN_ERRORS, type ToolMeta, type ToolResult } from './types';

/**
 * A tool call and its result as the engine item input `Engine.addItem` takes (pure). The class and
 * provenance follow what the result is:
 * - `list_files`, `grep` → `ephemeral` `tool_output` from `repository_source`, transient;
 * - `read_file` → `ephemeral` `code` from `repository_source`, transient, files = [the path];
 * - `run_command` of a test command that failed → `task_state` `failure` from `test_result`
 *   (carried across a refresh until fixed); that passed → `ephemeral` `tool_output` from `test_result`;
 * - any other command → `ephemeral` `tool_output` from `repository_source`.
 * Files and symbols are extracted: grep hit paths, the read path and its declared names, `file:line`
 * locations in command output (paths in `files`, the locations in `symbols`).
 * The id is `tool:<call id>`, so the same call always maps to the same item; the signature is the
 * tool name with its arguments in canonical JSON (repeated-action indicators count it).
 * A call refused before it ran (malformed JSON, unknown tool, invalid arguments or pattern, a path
 * outside the workspace, a command not allowed) maps to null: it says nothing about the workspace,
 * and its error already travels in the tool result message. A call that ran and failed (a missing
 * file, a FIFO, a binary file, ...) names no files: its path, in its text, is not something it read,
 * so it is never evidence of a memory entry promoted from it (`[evidence-regular]`).
 */

export interface ToolItemContext {
  agentId: string;
  taskId: string;
  /** Milliseconds since the epoch. */
  at: number;
  phase?: string;
  /** The workspace root (absolute): absolute paths under it in command output become relative. */
  workspaceRoot?: string;
}

/** Most files and symbols recorded on one item. */
const MAX_ITEM_FILES = 50;
const MAX_ITEM_SYMBOLS = 30;

/** The item id of a tool call's result. */
const toolItemId = (callId: string) => `tool:${callId}`;

export function toolResultItem(call: ToolCall, result: ToolResult, ctx: ToolItemContext): ItemInput | null {
  const meta: ToolMeta = result.meta;
  if ('error' in meta && PRE_RUN_ERRORS.has(meta.error)) return null;
  const content = result.content.length > 0 ? result.content : '(no output)';
  const base = {
    id: toolItemId(call.id),
    content,
    agentId: ctx.agentId,
    taskId: ctx.taskId,
    at: ctx.at,
    signature: signatureOf(call),
    ...(ctx.phase !== undefined ? { phase: ctx.phase } : {}),
  };

  if ('error' in meta) {
    // It ran and failed (not found, binary, timed-out pattern, a program that would not start, ...).
    const test = call.name === 'run_command' && isTestCommand(argvOf(call));
    return {
      ...base,
      kind: 'tool_output',
      class: 'ephemeral',
      title: `${call.name} failed (${meta.error.replace(/_/g, ' ')})`,
      source: test ? 'test_result' : 'repository_source',
      durability: 'transient',
      confidence: 0.9,
      relevance: 0.3,
      files: [],
    };
  }

  switch (meta.tool) {
    case 'list_files':
      return {
        ...base,
        kind: 'tool_output',
        class: 'ephemeral',
        title: `list_files ${meta.path} (${meta.entries} entr${meta.entries === 1 ? 'y' : 'ies'}${meta.truncated ? ', truncated' : ''})`,
        source: 'repository_source',
        durability: 'transient',
        confidence: 0.9,
        relevance: 0.3,
        files: meta.path === '.' ? [] : [meta.path],
      };
    case 'grep': {
      const files = unique(meta.hits.map((h) => h.file)).slice(0, MAX_ITEM_FILES);
      const symbol = /^[A-Za-z_$][\w$]{2,}$/.test(meta.pattern) ? [meta.pattern] : [];
      return {
        ...base,
        kind: 'tool_output',
        class: 'ephemeral',
        title: `grep ${JSON.stringify(meta.pattern)} (${meta.hits.length} match${meta.hits.length === 1 ? '' : 'es'}${meta.truncated ? ', truncated' : ''})`,
        source: 'repository_source',
        durability: 'transient',
        confidence: 0.9,
        relevance: 0.5,
        files,
        symbols: symbol,
      };
    }
    case 'read_file':
      return {
        ...base,
        kind: 'code',
        class: 'ephemeral',
        title: `${meta.path}:${meta.startLine}-${meta.endLine}${meta.truncated ? ' (truncated)' : ''}`,
        source: 'repository_source',
        durability: 'transient',
        confidence: 0.9,
        relevance: 0.6,
        files: [meta.path],
        symbols: declaredNames(content),
      };
    case 'run_command': {
      const locations = locationsIn(content, ctx.workspaceRoot);
      const files = unique(locations.map((l) => l.file)).slice(0, MAX_ITEM_FILES);
      const symbols = unique(locations.map((l) => `${l.file}:${l.line}`)).slice(0, MAX_ITEM_SYMBOLS);
      const outcome = meta.timedOut ? 'timed out' : meta.exitCode === null ? `killed by ${meta.signal ?? 'a signal'}` : `exit ${meta.exitCode}`;
      if (meta.testCommand && result.isError) {
        return {
          ...base,
          kind: 'failure',
          class: 'task_state',
          title: `Test failure: ${meta.command} (${outcome})`,
          source: 'test_result',
          durability: 'task',
          confidence: 0.9,
          relevance: 0.8,
          files,
          symbols,
        };
      }
      return {
        ...base,
        kind: 'tool_output',
        class: 'ephemeral',
        title: `${meta.testCommand ? 'Tests passed' : 'Command'}: ${meta.command} (${outcome})`,
        source: meta.testCommand ? 'test_result' : 'repository_source',
        durability: 'transient',
        confidence: 0.9,
        relevance: meta.testCommand ? 0.5 : 0.4,
        files,
        symbols,
      };
    }
  }
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}

/** argv of a run_command call, or [] when its arguments do not parse. */
function argvOf(call: ToolCall): string[] {
  try {
    const args = JSON.parse(call.arguments) as { command?: unknown };
    if (typeof args.command !== 'string') return [];
    const parsed = parseCommandLine(args.command);
    return parsed.ok ? parsed.argv : [];
  } catch {
    return [];
  }
}

/** Tool name and arguments as canonical JSON (keys sorted), or the raw text when it is not JSON. */
export function signatureOf(call: ToolCall): string {
  let args: string;
  try {
    args = canonicalJson(JSON.parse(call.arguments));
  } catch {
    args = call.arguments.trim();
  }
  return `${call.name} ${args}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const DECLARATION = /^\s*(?:export\s+)?(?:default\s+)?(?:declare\s+)?(?:abstract\s+)?(?:async\s+)?(?:pub(?:\([\w]+\))?\s+)?(?:function\*?|class|interface|type|enum|const|let|var|def|fn|struct|trait|func|namespace)\s+([A-Za-z_$][\w$]*)/;

/** Names declared at the start of lines of a `read_file` result (`12| export function foo`). */
function declaredNames(content: string): string[] {
  const names: string[] = [];
  for (const raw of content.split('\n')) {
    const bar = raw.indexOf('| ');
    if (bar < 0 || !/^\s*\d+$/.test(raw.slice(0, bar))) continue;
    const m = DECLARATION.exec(raw.slice(bar + 2, bar + 2 + 400));
    if (m?.[1] !== undefined && !names.includes(m[1])) names.push(m[1]);
    if (names.length >= MAX_ITEM_SYMBOLS) break;
  }
  return names;
}

/** Extensions of source and config files a `file:line` may name. */
const SOURCE_EXTENSIONS = new Set(
  'ts tsx mts cts js jsx mjs cjs json py rb go rs java kt kts scala c h cc cpp hpp cs swift php vue svelte css scss less html md yml yaml toml sql sh ex exs erl clj dart lua zig'.split(' '),
);

/** `file:line` locations in command output: `src/a.ts:12`, `src/a.ts:12:5`, `src/a.ts(12,5)`, stack frames. */
export function locationsIn(text: string, workspaceRoot?: string): { file: string; line: number }[] {
  const found: { file: string; line: number }[] = [];
  const root = workspaceRoot === undefined ? undefined : normalizePath(workspaceRoot).replace(/\/+$/, '');
  for (const line of text.split('\n').slice(0, 5000)) {
    for (const word of line.slice(0, 2000).split(/[\s]+/)) {
      if (word.length < 4 || word.length > 400) continue;
      // tsc: file(line,col)
      const paren = /^([^\s()]+)\((\d+),\d+\):?$/.exec(word);
      const candidates: [string, string][] = paren ? [[paren[1] as string, paren[2] as string]] : [];
      if (!paren) {
        for (const token of word.split(/[()[\]{}<>"'`,]+/)) {
          const end = /:(\d+)(?::\d+)?:?$/.exec(token);
          if (end) candidates.push([token.slice(0, end.index), end[1] as string]);
        }
      }
      for (const [rawPath, lineText] of candidates) {
        const file = toWorkspacePath(rawPath, root);
        const n = Number(lineText);
        if (file !== undefined && Number.isSafeInteger(n) && n > 0) found.push({ file, line: n });
      }
    }
    if (found.length >= MAX_ITEM_SYMBOLS * 4) break;
  }
  return found;
}

function normalizePath(p: string): string {
  return p.split('\\').join('/');
}

/** A path as written in output, made workspace-relative, or undefined when it is not a workspace source path. */
function toWorkspacePath(raw: string, root: string | undefined): string | undefined {
  let p = normalizePath(raw.replace(/^file:\/\//, ''));
  if (p.includes('node_modules/') || p.startsWith('node:') || p.includes('://')) return undefined;
  const absolute = p.startsWith('/') || /^[A-Za-z]:\//.test(p);
  if (absolute) {
    if (root === undefined || !p.startsWith(`${root}/`)) return undefined;
    p = p.slice(root.length + 1);
  }
  p = p.replace(/^(\.\/)+/, '');
  if (!/^[\w@.+~/-]+$/.test(p) || p.split('/').includes('..')) return undefined;
  const ext = /\.([A-Za-z][A-Za-z0-9]{0,7})$/.exec(p)?.[1];
  if (ext === undefined || !(p.includes('/') || SOURCE_EXTENSIONS.has(ext.toLowerCase()))) return undefined;
  return p;
}
