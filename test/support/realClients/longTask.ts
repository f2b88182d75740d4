import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { intIn, pick, seededRandom } from '../seededRandom';
import { after, lastUserSaid, type ScriptedReply, type ScriptRule } from './replyScript';

/**
 * The long scripted task both real clients run in one turn (SPEC `[real-client-long-task]`): a
 * workspace of 24 generated source files (4-14 KB: paths, exported symbols) and 20 test logs
 * (6-18 KB: PASS lines, FAIL lines with an assertion and a stack frame naming a source line), all
 * deterministic; the model reads every source file and prints every log (44 tool calls with large
 * outputs), then lists the failures with one more command, and answers with the failing tests it
 * found in that last output (`LT-DONE: …`), so the final answer shows the tools really ran.
 *
 * Each reply is matched on the newest tool result only (`after(<previous call id>)`), never on the
 * whole history, so the script answers the same whether or not a gateway rewrote earlier results.
 */

const LONG_TASK_MARKER = 'LT-TASK';
export const LONG_TASK_PROMPT = `${LONG_TASK_MARKER}: read every file under src/, print every log under logs/, then list the failing tests.`;
const DONE = 'LT-DONE';

interface WorkspaceFile {
  /** Relative to the workspace. */
  path: string;
  text: string;
}

/** One tool call of the plan: read a source file, or print a file (a log) with a shell command. */
export interface LongTaskStep {
  kind: 'read' | 'print' | 'list-failures';
  /** The file read or printed (relative); the glob for `list-failures`. */
  path: string;
}

const SOURCES = 24;
const LOGS = 20;
/** The shell command of the last step: one `FAIL <test> > <case>` line per failing case. */
export const LIST_FAILURES = "grep -ho '^FAIL [^ ]* > [a-zA-Z0-9_]*' logs/*.log | sort -u";

const sourcePath = (k: number) => `src/pkg${k}/module${k}.ts`;
const logPath = (k: number) => `logs/run-${String(k).padStart(2, '0')}.log`;
const symbol = (k: number, j: number) => `${pick(seededRandom(k * 1000 + j), ['parse', 'render', 'resolve', 'index', 'merge', 'flush'])}Token${k}_${j}`;

function sourceFile(k: number): WorkspaceFile {
  const rand = seededRandom(7_000 + k);
  const target = intIn(rand, 4_000, 14_000);
  const lines = [`// ${sourcePath(k)}: generated for the long real-client task`, `import { validate, type Token } from '../core/token';`, ''];
  for (let j = 0; lines.join('\n').length < target; j++) {
    lines.push(`/** ${symbol(k, j)}: checks token ${j} of package ${k} (limit ${intIn(rand, 8, 512)}). */`);
    lines.push(`export function ${symbol(k, j)}(input: Token, depth = ${intIn(rand, 0, 9)}): Token {`);
    lines.push(`  if (depth > ${intIn(rand, 10, 99)}) throw new RangeError('${symbol(k, j)}: too deep at ${sourcePath(k)}');`);
    lines.push(`  return validate(input, 0x${intIn(rand, 0, 0xffffff).toString(16).padStart(6, '0')}, '${symbol(k, j)}');`);
    lines.push('}', '');
  }
  return { path: sourcePath(k), text: `${lines.join('\n')}\n` };
}

function logFile(k: number): WorkspaceFile {
  const rand = seededRandom(9_000 + k);
  const target = intIn(rand, 6_000, 18_000);
  const lines = [`# ${logPath(k)}: test run ${k}`];
  for (let i = 0; lines.join('\n').length < target; i++) {
    const pkg = intIn(rand, 0, SOURCES - 1);
    const j = intIn(rand, 0, 20);
    const stamp = `2026-12-01T10:${String(Math.floor(i / 60) % 60).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}.${String(intIn(rand, 0, 999)).padStart(3, '0')}`;
    const test = `test/pkg${pkg}/case${j}.test.ts`;
    // About one case in 60 fails; a log may have none.
    if (rand() < 1 / 60) {
      lines.push(`FAIL ${test} > ${symbol(pkg, j)} rejects an empty token`);
      lines.push(`  AssertionError: expected ${intIn(rand, 0, 9)} to equal ${intIn(rand, 10, 19)}`);
      lines.push(`    at ${symbol(pkg, j)} (${sourcePath(pkg)}:${intIn(rand, 4, 300)}:${intIn(rand, 3, 40)})`);
    } else lines.push(`${stamp} [worker-${intIn(rand, 0, 7)}] PASS ${test} > ${symbol(pkg, j)} (${intIn(rand, 1, 400)} ms)`);
  }
  return { path: logPath(k), text: `${lines.join('\n')}\n` };
}

/** Every file of the workspace, the same on every run. */
export function longTaskFiles(): WorkspaceFile[] {
  return [...Array.from({ length: SOURCES }, (_, k) => sourceFile(k)), ...Array.from({ length: LOGS }, (_, k) => logFile(k))];
}

/** Writes every file of the workspace under `workspace`. */
export function writeLongTaskFiles(workspace: string): void {
  for (const f of longTaskFiles()) {
    mkdirSync(dirname(join(workspace, f.path)), { recursive: true });
    writeFileSync(join(workspace, f.path), f.text);
  }
}

/** The tool calls in order: sources and logs interleaved, then the failure listing. */
export function longTaskPlan(): LongTaskStep[] {
  const steps: LongTaskStep[] = [];
  for (let k = 0; k < Math.max(SOURCES, LOGS); k++) {
    if (k < SOURCES) steps.push({ kind: 'read', path: sourcePath(k) });
    if (k < LOGS) steps.push({ kind: 'print', path: logPath(k) });
  }
  steps.push({ kind: 'list-failures', path: 'logs/*.log' });
  return steps;
}

/** The failing cases as the last command prints them, `<test> > <case>`, sorted and distinct. */
export function failuresIn(output: string): string[] {
  return [...new Set([...output.matchAll(/^FAIL (\S+ > [a-zA-Z0-9_]+)/gm)].map((m) => m[1]!))].sort();
}

/** The final answer for the failures the last command printed. */
const longTaskAnswer = (failures: readonly string[]): string => `${DONE}: ${failures.length} failing tests: ${failures.join('; ')}`;

/** The answer the client must end with, from the generated files alone. */
export const expectedLongTaskAnswer = (): string =>
  longTaskAnswer(failuresIn(longTaskFiles().filter((f) => f.path.startsWith('logs/')).map((f) => f.text).join('\n')));

/**
 * The reply script for one client: `callFor` turns a step into that client's tool call (its id
 * and input). One rule per step and one for the answer, all the main thread's.
 */
export function longTaskRules(callFor: (step: LongTaskStep, index: number) => NonNullable<ScriptedReply['calls']>[number]): ScriptRule[] {
  const plan = longTaskPlan();
  const calls = plan.map((s, i) => callFor(s, i));
  const rules: ScriptRule[] = calls.map((call, i) => ({
    id: `lt-step-${String(i).padStart(2, '0')}`,
    agent: 'main',
    when: i === 0 ? lastUserSaid(LONG_TASK_MARKER) : after(calls[i - 1]!.id),
    reply: { text: `Step ${i + 1} of ${plan.length}: ${plan[i]!.kind} ${plan[i]!.path}.`, calls: [call] },
  }));
  const last = calls[calls.length - 1]!.id;
  rules.push({
    id: 'lt-answer',
    agent: 'main',
    when: after(last),
    reply: (r) => ({ text: longTaskAnswer(failuresIn(r.results[r.results.length - 1]?.text ?? '')) }),
  });
  return rules;
}
