import type { BuildRequest } from '../../engine/EngineTypes';
import type { ItemInput } from '../../engine/items/createItem';
import { seededRandom } from './seededRandom';

/** The scenarios' seeded generator (re-exported for the tests and benches that build on them). */
export const seeded = seededRandom;

const MODULES = ['auth', 'billing', 'session', 'tokens', 'users', 'audit', 'mailer', 'routes', 'db', 'config'];
const VERBS = ['load', 'save', 'rotate', 'verify', 'issue', 'revoke', 'parse', 'render', 'check', 'sync'];
const NOUNS = ['Token', 'Session', 'Family', 'User', 'Invoice', 'Claim', 'Scope', 'Key', 'Record', 'Event'];

export interface ScenarioTurn {
  items: ItemInput[];
  request: BuildRequest;
}

/**
 * A long-lived worker session made of realistic material: file reads, grep dumps, test runs with
 * failures, findings, decisions and reports from sibling agents. Sizes follow real coding-agent
 * traces: most tool outputs are 0.3-4k tokens, findings are short, some reads are large.
 */
export function longLivedScenario(o: { turns: number; seed: number; agentId: string; taskId: string; t0: number }): ScenarioTurn[] {
  const rnd = seeded(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const file = () => `src/${pick(MODULES)}/${pick(VERBS)}${pick(NOUNS)}.ts`;
  const symbol = () => `${pick(VERBS)}${pick(NOUNS)}`;
  const codeLines = (n: number, path: string) =>
    Array.from({ length: n }, (_, i) => {
      const s = symbol();
      return i % 7 === 0
        ? `export async function ${s}(input: ${pick(NOUNS)}Input): Promise<${pick(NOUNS)}> {`
        : `  const ${s.toLowerCase()}${i} = await ${pick(MODULES)}.${s}(input.${pick(NOUNS).toLowerCase()}Id); // ${path}:${i + 1}`;
    }).join('\n');

  const turns: ScenarioTurn[] = [];
  const focus = [file(), file(), file()];
  for (let t = 0; t < o.turns; t++) {
    const at = o.t0 + t * 45_000;
    const phase = t < o.turns * 0.3 ? 'explore' : t < o.turns * 0.8 ? 'implement' : 'verify';
    if (t % 40 === 39) focus.splice(0, 1, file());
    const base = { agentId: o.agentId, taskId: o.taskId, at, phase };
    const items: ItemInput[] = [];
    const r = rnd();
    const path = pick(focus);
    if (r < 0.35) {
      const lines = 20 + Math.floor(rnd() * 160);
      items.push({ ...base, id: `read-${t}`, kind: 'tool_output', class: 'ephemeral', title: `read ${path}`, content: codeLines(lines, path), source: 'repository_source', files: [path], symbols: [symbol()], signature: `read:${path}` });
    } else if (r < 0.55) {
      const hits = 10 + Math.floor(rnd() * 60);
      const s = symbol();
      const content = Array.from({ length: hits }, () => `${file()}:${1 + Math.floor(rnd() * 400)}:  ${s}(${pick(NOUNS).toLowerCase()})`).join('\n');
      items.push({ ...base, id: `grep-${t}`, kind: 'tool_output', class: 'ephemeral', title: `grep ${s}`, content, source: 'repository_source', files: [path], symbols: [s], signature: `grep:${s}` });
    } else if (r < 0.7) {
      const failed = rnd() < 0.5;
      const s = symbol();
      const content = [
        `$ npm test -- ${path.replace('src/', 'test/').replace('.ts', '.test.ts')}`,
        failed ? ` FAIL  ${path.replace('src/', 'test/')} > ${s} > handles expiry` : ` PASS  ${path.replace('src/', 'test/')}`,
        failed ? `AssertionError: expected ${Math.floor(rnd() * 500)} to be ${Math.floor(rnd() * 500)}` : '',
        failed ? `    at ${s} (${path}:${10 + Math.floor(rnd() * 90)}:7)` : '',
        ` Tests  ${failed ? '1 failed | ' : ''}${5 + Math.floor(rnd() * 20)} passed`,
      ]
        .filter(Boolean)
        .join('\n');
      items.push({ ...base, id: `test-${t}`, kind: failed ? 'failure' : 'tool_output', class: failed ? 'task_state' : 'ephemeral', title: failed ? `failing: ${s}` : 'tests pass', content, source: 'test_result', files: [path], symbols: [s], signature: `test:${path}` });
    } else if (r < 0.85) {
      const s = symbol();
      items.push({ ...base, id: `finding-${t}`, kind: 'finding', class: 'finding', title: `${s} in ${path}`, content: `Root cause: ${s}() in ${path} compares seconds with milliseconds; fix by converting once in ${symbol()}(). Verified with npm test.`, source: 'worker_finding', files: [path], symbols: [s], confidence: 0.8, durability: 'task' });
    } else if (r < 0.93) {
      items.push({ ...base, id: `edit-${t}`, kind: 'decision', class: 'task_state', title: `edit ${path}`, content: `Decided: ${symbol()} now takes a ${pick(NOUNS)} instead of an id; updated callers in ${path} and ${file()}.`, source: 'worker_finding', files: [path], symbols: [symbol()], durability: 'task' });
    } else {
      const sibling = `worker-${2 + Math.floor(rnd() * 3)}`;
      items.push({ ...base, agentId: sibling, id: `report-${t}`, kind: 'report', class: 'finding', title: `report from ${sibling}`, content: `Report from ${sibling}: changed ${file()}, ${file()}; decision: keep ${symbol()} synchronous; verified: npm test (all pass); risk: ${symbol()} untested under load.`, source: 'parent_report', files: [file()], symbols: [symbol()], durability: 'task', relevance: 0.7 });
    }
    turns.push({ items, request: { phase, files: [path, ...focus.filter((f) => f !== path)], symbols: [], keywords: [], input: `Turn ${t}: continue with ${path}.` } });
  }
  return turns;
}
