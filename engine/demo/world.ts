import type { AgentRole } from '../contract';
import { hashString, Rng } from './prng';
import { SPEC_CASES, SPEC_FILES, type SpecCase, type SpecFailure } from './specs';
import { DEMO_EDITS, type EditId } from './demoEdits';

/** The demo's repository as the session finds it: path (posix, relative) to UTF-8 text, in path order. */
export type DemoFiles = Readonly<Record<string, string>>;

/**
 * The state of the demo repository and of the run while the generator simulates it: the files as
 * the agents' edits leave them, the agents as the runtime's scheduler will see them, and the tools
 * (grep, read_file, run_command, edit_file) answering from that state in the formats of the real
 * tools, so a recorded result is what the tool would have said at that moment of the run.
 */

type DemoToolName = 'grep' | 'read_file' | 'run_command' | 'edit_file';

/** A tool call an agent makes; `edit` names the change an `edit_file` applies (not sent to the model). */
export interface CallDraft {
  name: DemoToolName;
  args: Record<string, unknown>;
  edit?: EditId;
}

export interface TestReport {
  /** `missing`: the edits the case still needs at the time of the run. */
  failed: { file: string; name: string; short: string; missing: EditId[] }[];
  passed: { file: string; name: string }[];
}

export interface CallResult {
  call: CallDraft;
  content: string;
  isError: boolean;
  /** For a test run. */
  tests?: TestReport;
  /** For a grep: the matching `file:line: text` lines. */
  hits?: string[];
  /** For an edit: lines added and removed. */
  added?: number;
  removed?: number;
}

export interface AgentInfo {
  agentId: string;
  role: AgentRole;
  parent: string | null;
  task: string;
  dependsOn: string[];
  status: 'waiting' | 'running' | 'done';
  turns: number;
  lastText: string;
}

const PROJECT = '/home/dev/payments-api';

/** Depth-first walk order, names in code-unit order (the order of the real grep tool). */
function walkOrder(a: string, b: string): number {
  const pa = a.split('/');
  const pb = b.split('/');
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    const x = pa[i] as string;
    const y = pb[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return pa.length - pb.length;
}

type DiffOp = { op: ' ' | '-' | '+'; text: string; a: number; b: number };

/** Line diff by longest common subsequence (the files are small). */
function lineDiff(before: string, after: string): DiffOp[] {
  const a = before === '' ? [] : before.replace(/\n$/, '').split('\n');
  const b = after === '' ? [] : after.replace(/\n$/, '').split('\n');
  const n = a.length;
  const m = b.length;
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    const row = dp[i] as number[];
    const below = dp[i + 1] as number[];
    for (let j = m - 1; j >= 0; j--) row[j] = a[i] === b[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
  }
  const ops: DiffOp[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) ops.push({ op: ' ', text: a[i++] as string, a: i, b: ++j });
    else if (i < n && (j >= m || ((dp[i + 1] as number[])[j] as number) >= ((dp[i] as number[])[j + 1] as number))) ops.push({ op: '-', text: a[i++] as string, a: i, b: j });
    else ops.push({ op: '+', text: b[j++] as string, a: i, b: j });
  }
  return ops;
}

const hex7 = (text: string) => hashString(text).toString(16).padStart(8, '0').slice(0, 7);

export class World {
  readonly files = new Map<string, string>();
  readonly applied = new Set<EditId>();
  readonly agents = new Map<string, AgentInfo>();
  /** Findings stated so far, in order (the primary reads new ones while it waits). */
  readonly findings: { agentId: string; title: string }[] = [];
  /** The last edit applied to each file. */
  readonly lastEdit = new Map<string, EditId>();
  /** Seconds since the session started (for the times test runs print). */
  clock = 0;
  readonly rng: Rng;

  /** @param start the repository as the session finds it (diffs are against it). */
  constructor(
    seed: number,
    private readonly start: DemoFiles,
  ) {
    for (const [path, text] of Object.entries(start)) this.files.set(path, text);
    this.rng = Rng.derive(seed, 'world');
  }

  has(edit: EditId): boolean {
    return this.applied.has(edit);
  }

  agent(agentId: string): AgentInfo {
    const a = this.agents.get(agentId);
    if (!a) throw new RangeError(`no agent ${agentId} in the demo run`);
    return a;
  }

  isDone(agentId: string): boolean {
    return this.agents.get(agentId)?.status === 'done';
  }

  /** Not done, and every dependency done: the scheduler may run it (or is running it). */
  runnableNow(agentId: string): boolean {
    const a = this.agent(agentId);
    return a.status !== 'done' && a.dependsOn.every((d) => this.isDone(d));
  }

  childrenOf(agentId: string): AgentInfo[] {
    return [...this.agents.values()].filter((a) => a.parent === agentId);
  }

  /** 1-based line of the first line containing `snippet`, searching from line `from`; 0 when absent. */
  lineOf(path: string, snippet: string, from = 1): number {
    const lines = (this.files.get(path) ?? '').split('\n');
    for (let i = Math.max(0, from - 1); i < lines.length; i++) if ((lines[i] as string).includes(snippet)) return i + 1;
    return 0;
  }

  lineCount(path: string): number {
    const text = this.files.get(path) ?? '';
    return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
  }

  /** Run one call against the current state; an edit changes it. */
  execute(call: CallDraft): CallResult {
    switch (call.name) {
      case 'grep':
        return { call, ...this.grep(String(call.args['pattern']), call.args['path'] === undefined ? '.' : String(call.args['path'])) };
      case 'read_file':
        return { call, ...this.read(String(call.args['path']), call.args['start_line'] as number | undefined, call.args['end_line'] as number | undefined) };
      case 'edit_file':
        if (!call.edit) throw new RangeError('an edit_file call needs the edit it applies');
        return { call, ...this.applyEdit(call.edit) };
      case 'run_command':
        return { call, ...this.command(String(call.args['command'])) };
    }
  }

  grep(pattern: string, path: string): { content: string; isError: boolean; hits: string[] } {
    const scope = path === '.' || path === '' ? '' : path.replace(/\/$/, '');
    const inScope = [...this.files.keys()].filter((f) => scope === '' || f === scope || f.startsWith(`${scope}/`)).sort(walkOrder);
    if (inScope.length === 0) return { content: `No such file or folder: ${JSON.stringify(path)}.`, isError: true, hits: [] };
    const re = new RegExp(pattern);
    const hits: string[] = [];
    for (const f of inScope) {
      (this.files.get(f) as string).split('\n').forEach((text, i) => {
        if (re.test(text)) hits.push(`${f}:${i + 1}: ${text}`);
      });
    }
    const shown = hits.slice(0, 100);
    if (shown.length === 0) {
      return { content: `No matches for ${JSON.stringify(pattern)} in ${scope === '' ? 'the workspace' : scope} (${inScope.length} file${inScope.length === 1 ? '' : 's'} searched).`, isError: false, hits };
    }
    const notes = hits.length > 100 ? ['[stopped at max_results=100; there are more matches: narrow the pattern, path or glob]'] : [];
    return { content: [...shown, ...notes].join('\n'), isError: false, hits: shown };
  }

  read(path: string, start?: number, end?: number): { content: string; isError: boolean } {
    const text = this.files.get(path);
    if (text === undefined) return { content: `No such file: ${JSON.stringify(path)}.`, isError: true };
    const lines = text.replace(/\n$/, '').split('\n');
    const first = Math.max(1, start ?? 1);
    const last = Math.min(lines.length, end ?? lines.length);
    if (first > lines.length) return { content: `start_line ${first} is past the end of ${path}, which has ${lines.length} lines.`, isError: true };
    const width = String(last).length;
    const out = [`File: ${path}, lines ${first}-${last} of ${lines.length}`];
    for (let n = first; n <= last; n++) out.push(`${String(n).padStart(width)}| ${lines[n - 1] as string}`);
    return { content: out.join('\n'), isError: false };
  }

  applyEdit(id: EditId): { content: string; isError: boolean; added: number; removed: number } {
    const edit = DEMO_EDITS[id];
    const before = this.files.get(edit.path);
    let after: string;
    if ('create' in edit) {
      if (before !== undefined) throw new RangeError(`edit ${id}: ${edit.path} already exists`);
      after = edit.create;
    } else {
      if (before === undefined) throw new RangeError(`edit ${id}: no file ${edit.path}`);
      after = before;
      for (const [find, replacement] of edit.replace) {
        const at = after.indexOf(find);
        if (at < 0 || after.indexOf(find, at + 1) >= 0) throw new RangeError(`edit ${id}: the text to replace in ${edit.path} is ${at < 0 ? 'missing' : 'ambiguous'}`);
        after = after.slice(0, at) + replacement + after.slice(at + find.length);
      }
    }
    this.files.set(edit.path, after);
    this.applied.add(id);
    this.lastEdit.set(edit.path, id);
    const ops = lineDiff(before ?? '', after);
    const added = ops.filter((o) => o.op === '+').length;
    const removed = ops.filter((o) => o.op === '-').length;
    const total = this.lineCount(edit.path);
    if (before === undefined) return { content: `Created ${edit.path} (${total} lines).`, isError: false, added, removed };
    const changed = ops.filter((o) => o.op !== ' ');
    const from = Math.max(1, Math.min(...changed.map((o) => (o.op === '+' ? o.b : o.b + 1))));
    const to = Math.max(from, ...changed.map((o) => o.b));
    const places = 'replace' in edit && edit.replace.length > 1 ? ` in ${edit.replace.length} places` : from === to ? `: line ${from}` : `: lines ${from}-${to}`;
    return { content: `Edited ${edit.path}${places} (+${added} −${removed}); the file now has ${total} lines.`, isError: false, added, removed };
  }

  command(command: string): { content: string; isError: boolean; tests?: TestReport } {
    const test = /^npm test(?: -- (\S+))?$/.exec(command);
    if (test) return this.runTests(command, test[1]);
    if (command === 'git diff --stat') return { content: `$ ${command}\n${this.diffStat()}\n[exit code 0]`, isError: false };
    const diff = /^git diff (\S+)$/.exec(command);
    if (diff) return { content: `$ ${command}\n${this.diff(diff[1] as string) || '(no output)'}\n[exit code 0]`, isError: false };
    if (command === 'npm run db:migrate -- --dry-run') {
      const pending = [...this.files.keys()].filter((f) => /^db\/migrations\/004[2-9]/.test(f)).sort();
      const body = pending.length === 0 ? 'No pending migrations.' : pending.map((f) => `would apply ${f.slice('db/migrations/'.length)} (${this.lineCount(f)} lines, ${this.rng.int(3, 19)} ms on the test database)`).join('\n');
      return { content: `$ ${command}\n\n> payments-api@3.14.0 db:migrate\n> node scripts/migrate.js --dry-run\n\n${body}\n[exit code 0]`, isError: false };
    }
    return { content: `$ ${command}\nsh: command not allowed in this workspace\n[exit code 127]`, isError: true };
  }

  #clockText(): string {
    const total = 9 * 3600 + 40 * 60 + this.clock;
    const hh = Math.floor(total / 3600) % 24;
    const mm = Math.floor(total / 60) % 60;
    const ss = total % 60;
    return [hh, mm, ss].map((n) => String(n).padStart(2, '0')).join(':');
  }

  /** The cases of `file` present in it now, in file order. */
  casesOf(file: string): SpecCase[] {
    const text = this.files.get(file) ?? '';
    return SPEC_CASES.filter((c) => c.file === file && text.includes(`it('${c.name}'`)).sort((a, b) => this.lineOf(file, `it('${a.name}'`) - this.lineOf(file, `it('${b.name}'`));
  }

  runTests(command: string, target: string | undefined): { content: string; isError: boolean; tests: TestReport } {
    const files = target === undefined ? [...SPEC_FILES] : [target];
    const view = { has: (e: EditId) => this.has(e), lineOf: (p: string, s: string) => this.lineOf(p, s), rng: this.rng };
    const report: TestReport = { failed: [], passed: [] };
    const fileLines: string[] = [];
    const stderr: string[] = [];
    const failures: { c: SpecCase; f: SpecFailure }[] = [];
    let testsMs = 0;
    for (const file of files) {
      const cases = this.casesOf(file);
      const rows: string[] = [];
      let fileMs = 0;
      let failedHere = 0;
      for (const c of cases) {
        const ms = file.includes('integration') ? this.rng.int(18, 140) : this.rng.int(1, 9);
        fileMs += ms;
        const f = c.fail(view);
        if (f) {
          failedHere++;
          failures.push({ c, f });
          const short = f.error.replace(/^AssertionError: /, '').replace(/ \/\/ Object\.is equality$/, '');
          report.failed.push({ file, name: c.name, short, missing: c.needs.filter((e) => !this.has(e)) });
          rows.push(`   × ${c.suite} > ${c.name} ${ms}ms`, `     → ${short}`);
          if (f.stderr) stderr.push(`stderr | ${file} > ${c.suite} > ${c.name}`, f.stderr, '');
        } else {
          report.passed.push({ file, name: c.name });
          rows.push(`   ✓ ${c.suite} > ${c.name}${ms > 50 ? ` ${ms}ms` : ''}`);
        }
      }
      testsMs += fileMs;
      if (failedHere === 0) fileLines.push(` ✓ ${file} (${cases.length} test${cases.length === 1 ? '' : 's'}) ${fileMs}ms`);
      else fileLines.push(` ❯ ${file} (${cases.length} tests | ${failedHere} failed) ${fileMs}ms`, ...rows);
    }
    const out = [`$ ${command}`, '', '> payments-api@3.14.0 test', `> vitest run${target ? ` ${target}` : ''}`, '', '', ` RUN  v2.1.8 ${PROJECT}`, ''];
    out.push(...stderr, ...fileLines);
    if (failures.length > 0) {
      out.push('', `⎯⎯⎯⎯⎯⎯⎯ Failed Tests ${failures.length} ⎯⎯⎯⎯⎯⎯⎯`, '');
      failures.forEach(({ c, f }, k) => {
        out.push(` FAIL  ${c.file} > ${c.suite} > ${c.name}`, f.error);
        const line = this.lineOf(c.file, f.at, this.lineOf(c.file, `it('${c.name}'`));
        const lines = (this.files.get(c.file) ?? '').split('\n');
        const text = lines[line - 1] ?? '';
        // The caret goes under the call that threw, or under the matcher that failed.
        const at = text.indexOf(f.at);
        const matcher = text.lastIndexOf('.to');
        const col = f.error.startsWith('TypeError') ? at + f.at.indexOf('.') + 2 : matcher >= 0 ? matcher + 2 : at + 1;
        out.push(` ❯ ${c.file}:${line}:${col}`);
        for (let n = Math.max(1, line - 2); n <= Math.min(lines.length - 1, line + 2); n++) {
          out.push(`${String(n).padStart(6)}| ${lines[n - 1] as string}`);
          if (n === line) out.push(`${' '.repeat(6)}| ${' '.repeat(Math.max(0, col - 1))}^`);
        }
        out.push('', `${'⎯'.repeat(52)}[${k + 1}/${failures.length}]⎯`, '');
      });
    }
    const failedFiles = new Set(report.failed.map((f) => f.file)).size;
    const passedFiles = files.length - failedFiles;
    const count = (failed: number, passed: number, total: number) => [failed > 0 ? `${failed} failed` : '', passed > 0 ? `${passed} passed` : ''].filter(Boolean).join(' | ') + ` (${total})`;
    const total = report.failed.length + report.passed.length;
    const transform = this.rng.int(60, 240);
    const collect = this.rng.int(90, 420);
    const prepare = this.rng.int(60, 310);
    const duration = ((transform + collect + prepare + testsMs + this.rng.int(80, 300)) / 1000).toFixed(2);
    out.push(
      '',
      ` Test Files  ${count(failedFiles, passedFiles, files.length)}`,
      `      Tests  ${count(report.failed.length, report.passed.length, total)}`,
      `   Start at  ${this.#clockText()}`,
      `   Duration  ${duration}s (transform ${transform}ms, setup 0ms, collect ${collect}ms, tests ${testsMs}ms, environment 0ms, prepare ${prepare}ms)`,
      '',
      `[exit code ${failures.length > 0 ? 1 : 0}]`,
    );
    return { content: out.join('\n'), isError: failures.length > 0, tests: report };
  }

  /** Files that differ from the session's start, in walk order. */
  changedFiles(): string[] {
    return [...this.files.keys()].filter((f) => this.files.get(f) !== this.start[f]).sort(walkOrder);
  }

  diffStat(): string {
    const rows = this.changedFiles().map((f) => {
      const ops = lineDiff(this.start[f] ?? '', this.files.get(f) as string);
      return { f, plus: ops.filter((o) => o.op === '+').length, minus: ops.filter((o) => o.op === '-').length };
    });
    if (rows.length === 0) return '';
    const nameWidth = Math.max(...rows.map((r) => r.f.length));
    const numWidth = Math.max(...rows.map((r) => String(r.plus + r.minus).length));
    const lines = rows.map((r) => ` ${r.f.padEnd(nameWidth)} | ${String(r.plus + r.minus).padStart(numWidth)} ${'+'.repeat(r.plus)}${'-'.repeat(r.minus)}`);
    const plus = rows.reduce((s, r) => s + r.plus, 0);
    const minus = rows.reduce((s, r) => s + r.minus, 0);
    lines.push(` ${rows.length} file${rows.length === 1 ? '' : 's'} changed, ${plus} insertion${plus === 1 ? '' : 's'}(+), ${minus} deletion${minus === 1 ? '' : 's'}(-)`);
    return lines.join('\n');
  }

  /** A unified diff of one file against the session's start (3 lines of context). */
  diff(path: string): string {
    const before = this.start[path];
    const after = this.files.get(path);
    if (after === undefined || before === after) return '';
    const ops = lineDiff(before ?? '', after);
    const out = [`diff --git a/${path} b/${path}`];
    if (before === undefined) out.push('new file mode 100644', `index 0000000..${hex7(after)}`, '--- /dev/null');
    else out.push(`index ${hex7(before)}..${hex7(after)} 100644`, `--- a/${path}`);
    out.push(`+++ b/${path}`);
    const changed = ops.map((o, i) => (o.op === ' ' ? -1 : i)).filter((i) => i >= 0);
    let k = 0;
    while (k < changed.length) {
      const start = Math.max(0, (changed[k] as number) - 3);
      let end = Math.min(ops.length - 1, (changed[k] as number) + 3);
      while (k + 1 < changed.length && (changed[k + 1] as number) - 3 <= end + 1) end = Math.min(ops.length - 1, (changed[++k] as number) + 3);
      k++;
      const hunk = ops.slice(start, end + 1);
      const aLen = hunk.filter((o) => o.op !== '+').length;
      const bLen = hunk.filter((o) => o.op !== '-').length;
      const first = hunk[0] as DiffOp;
      const aStart = first.op === '+' ? first.a + 1 : first.a;
      const bStart = first.op === '-' ? first.b + 1 : first.b;
      out.push(`@@ -${aLen === 0 ? 0 : aStart},${aLen} +${bLen === 0 ? 0 : bStart},${bLen} @@`);
      for (const o of hunk) out.push(`${o.op}${o.text}`);
    }
    return out.join('\n');
  }
}
