/**
 * What a recorded tool call was, whatever agent recorded it (Claude Code `Read`/`Bash`, Codex
 * `shell_command`/`apply_patch`, OpenCode `read`, mini-swe-agent `bash`): the kind decides the item
 * class a replay gives its result. Shell commands are classified by their first real program
 * (after `cd …`, environment assignments, `sudo`, `timeout N`), a test run by any of its
 * `&&`/`;`/`|` segments. A heuristic on names, deterministic; unknown tools are `other`.
 */
import { isTestCommand } from '../../runtime/commandLine';
import { argumentsObject } from '../jsonText';

export type ToolKind = 'read' | 'search' | 'edit' | 'test' | 'shell' | 'plan' | 'agent' | 'other';

export interface ToolCallInfo {
  kind: ToolKind;
  /** The call's main argument on one line (path, command, pattern…), at most 160 characters. */
  summary: string;
  /** The shell command, for shell tools. */
  command?: string;
}

const byName: Record<string, ToolKind> = {};
const add = (kind: ToolKind, names: string) => names.split(' ').forEach((n) => (byName[n.toLowerCase()] = kind));
add('read', 'Read read read_file view NotebookRead open_file cat');
add('search', 'Grep grep Glob glob LS ls list list_files find search codebase_search file_search ToolSearch WebSearch WebFetch');
add('edit', 'Edit MultiEdit Write NotebookEdit edit write apply_patch multiedit create_file str_replace_editor str_replace');
add('shell', 'Bash bash shell shell_command exec_command local_shell run_command execute_command write_stdin container.exec');
add('plan', 'TodoWrite todowrite todoread TaskCreate TaskUpdate TaskList update_plan EnterPlanMode ExitPlanMode');
add('agent', 'Agent Task');

const READERS = new Set(['cat', 'head', 'tail', 'sed', 'nl', 'less', 'more', 'bat', 'get-content', 'gc', 'type', 'awk']);
const SEARCHERS = new Set(['grep', 'egrep', 'rg', 'ag', 'find', 'fd', 'ls', 'dir', 'tree', 'get-childitem', 'gci', 'select-string', 'findstr', 'git', 'wc', 'stat', 'pwd']);
const SUMMARY_KEYS = ['file_path', 'filePath', 'path', 'notebook_path', 'command', 'cmd', 'pattern', 'query', 'url', 'description', 'subject', 'prompt'];

const oneLine = (s: string, max = 160) => {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
};

const parseArgs = argumentsObject;

/** The command string of a shell call (`command` as text or argv, `cmd`), if any. */
function commandOf(args: Record<string, unknown> | undefined): string | undefined {
  const c = args?.['command'] ?? args?.['cmd'];
  if (typeof c === 'string') return c;
  if (Array.isArray(c) && c.every((x) => typeof x === 'string')) {
    // ["bash", "-lc", "<script>"] runs its last word; any other argv is the command itself.
    const argv = c as string[];
    return argv.length >= 3 && /(?:^|\/)(?:ba|z)?sh$/.test(argv[0] as string) && argv[1]?.startsWith('-') ? (argv.at(-1) as string) : argv.join(' ');
  }
  return undefined;
}

const words = (segment: string) => segment.trim().split(/\s+/).map((w) => w.replace(/^["']|["']$/g, '')).filter((w) => w !== '');
const program = (word: string) => (word.split(/[\\/]/).pop() ?? word).toLowerCase().replace(/\.(exe|cmd|bat)$/, '');

/** The argv of a shell segment without its `cd`, `sudo`, `timeout N` and `VAR=value` prefixes. */
function realArgv(segment: string): string[] {
  const argv = words(segment);
  for (;;) {
    const first = argv[0];
    if (first === undefined) return argv;
    if (/^[A-Za-z_]\w*=/.test(first) || first === 'sudo' || first === 'env') argv.shift();
    else if (first === 'timeout') argv.splice(0, 2);
    else return argv;
  }
}

/** The kind of a shell command (rules in the module comment). */
export function shellKind(command: string): ToolKind {
  const segments = command.split(/&&|\|\||;|\||\n/).map(realArgv).filter((a) => a.length > 0 && program(a[0] as string) !== 'cd');
  if (segments.some((a) => isTestCommand(a))) return 'test';
  const first = segments[0];
  if (first === undefined) return 'shell';
  const p = program(first[0] as string);
  if (READERS.has(p)) return 'read';
  if (SEARCHERS.has(p)) return 'search';
  return 'shell';
}

/** The kind and one-line summary of a call. */
export function classifyToolCall(name: string, argumentsText: string): ToolCallInfo {
  const args = parseArgs(argumentsText);
  let kind: ToolKind = byName[name.toLowerCase()] ?? 'other';
  const command = kind === 'shell' ? commandOf(args) : undefined;
  if (command !== undefined) kind = shellKind(command);
  const key = SUMMARY_KEYS.find((k) => typeof args?.[k] === 'string' || (k === 'command' && command !== undefined));
  const value = key === 'command' || key === 'cmd' ? command : key === undefined ? undefined : (args?.[key] as string);
  const summary = oneLine(value ?? (args ? '' : argumentsText));
  return command === undefined ? { kind, summary } : { kind, summary, command };
}

/**
 * Whether a test run's output says it failed: the format's error flag, a non-zero exit code as
 * Codex (`Exit code: 1`) or mini-swe-agent (`<returncode>1</returncode>`) record it, or a test
 * runner's failure summary.
 */
export function testFailed(content: string, isError: boolean): boolean {
  return (
    isError ||
    /^Exit code: [1-9]/m.test(content) ||
    /<returncode>[1-9]\d*<\/returncode>/.test(content) ||
    /\b(?:exit(?:ed with)? code|exit status) [1-9]/i.test(content) ||
    /\b[1-9]\d* (?:failed|failing|errors?)\b/i.test(content) ||
    /^\s*(?:FAIL|FAILED|ERROR)\b/m.test(content) ||
    /Traceback \(most recent call last\)/.test(content)
  );
}
