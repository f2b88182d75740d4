import { posix } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { claudeCodeLongTask } from '../../support/realClients/claudeCodeLongTask';
import { codexLongTask } from '../../support/realClients/codexLongTask';
import { expectedLongTaskAnswer, failuresIn, LIST_FAILURES, LONG_TASK_PROMPT, longTaskFiles, longTaskPlan } from '../../support/realClients/longTask';
import type { ScenarioContext } from '../../support/realClients/RealClientScenario';
import { startScriptedServer, type ScriptedServer } from '../../support/realClients/scriptedServer';

// The long task's workspace and reply script, driven by a simulated client over HTTP through the
// validating server: the script must answer step by step whether or not earlier tool results were
// rewritten (as a managing gateway does), and nothing it leads to may be refused.

const WS = '/ws';
const ctx = { workspace: WS } as ScenarioContext;
const files = new Map(longTaskFiles().map((f) => [f.path, f.text]));

/** What the tool prints: the file for a read or a `cat`, the `grep | sort -u` lines for the listing. */
function toolOutput(input: Record<string, unknown>): string {
  const command = String(input['command'] ?? input['cmd'] ?? '');
  if (command === LIST_FAILURES) {
    const logs = [...files].filter(([p]) => p.startsWith('logs/')).map(([, t]) => t).join('\n');
    return `${[...new Set([...logs.matchAll(/^FAIL [^ ]* > [a-zA-Z0-9_]*/gm)].map((m) => m[0]))].sort().join('\n')}\n`;
  }
  const path = typeof input['file_path'] === 'string' ? posix.relative(WS, input['file_path']) : command.replace(/^cat /, '');
  const text = files.get(path);
  if (text === undefined) throw new Error(`the script asked for ${path}, which the workspace does not have`);
  return text;
}

/** A manager's rewrite: every result but the newest `keep` becomes a one-line placeholder that keeps the call id. */
const placeholder = (text: string) => `[output cleared by the gateway: ${text.split('\n')[0]!.slice(0, 80)}; ${text.length} bytes]`;

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function postJson(path: string, body: unknown): Promise<Record<string, any>> {
  const res = await fetch(`${server!.origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return (await res.json()) as Record<string, any>;
}

async function driveAnthropic(keep: number | undefined): Promise<string> {
  server = await startScriptedServer({ rules: claudeCodeLongTask.rules(ctx), validation: claudeCodeLongTask.validation! });
  const messages: Record<string, any>[] = [{ role: 'user', content: [{ type: 'text', text: LONG_TASK_PROMPT }] }];
  for (let turn = 0; turn < 60; turn++) {
    const results = messages.flatMap((m) => (Array.isArray(m['content']) ? m['content'] : [])).filter((b: Record<string, any>) => b['type'] === 'tool_result');
    const sent = messages.map((m) => ({ ...m, content: m['content'].map((b: Record<string, any>) => (keep !== undefined && b['type'] === 'tool_result' && results.indexOf(b) < results.length - keep ? { ...b, content: placeholder(String(b['content'])) } : b)) }));
    const last = sent[sent.length - 1]!;
    last['content'] = [...last['content'].slice(0, -1), { ...last['content'].at(-1), cache_control: { type: 'ephemeral' } }];
    const reply = await postJson('/v1/messages', { model: 'claude-sonnet-4-5', max_tokens: 1000, system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }], messages: sent });
    if (reply['stop_reason'] !== 'tool_use') return String(reply['content'][0]?.text ?? JSON.stringify(reply));
    messages.push({ role: 'assistant', content: reply['content'] });
    const uses = (reply['content'] as Record<string, any>[]).filter((b) => b['type'] === 'tool_use');
    messages.push({ role: 'user', content: uses.map((u) => ({ type: 'tool_result', tool_use_id: u['id'], content: toolOutput(u['input']) })) });
  }
  throw new Error('the script never answered');
}

async function driveResponses(keep: number | undefined): Promise<string> {
  server = await startScriptedServer({ rules: codexLongTask.rules(ctx), validation: codexLongTask.validation! });
  const input: Record<string, any>[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: LONG_TASK_PROMPT }] }];
  for (let turn = 0; turn < 60; turn++) {
    const outputs = input.filter((i) => i['type'] === 'function_call_output');
    const sent = input.map((i) => (keep !== undefined && i['type'] === 'function_call_output' && outputs.indexOf(i) < outputs.length - keep ? { ...i, output: placeholder(String(i['output'])) } : i));
    const reply = await postJson('/v1/responses', { model: 'gpt-5.5', instructions: 'You are a coding agent.', input: sent });
    const items = reply['output'] as Record<string, any>[];
    const calls = items.filter((i) => i['type'] === 'function_call');
    if (calls.length === 0) return String(items[0]?.['content']?.[0]?.text ?? JSON.stringify(reply));
    input.push(...items);
    for (const c of calls) input.push({ type: 'function_call_output', call_id: c['call_id'], output: toolOutput(JSON.parse(String(c['arguments'])) as Record<string, unknown>) });
  }
  throw new Error('the script never answered');
}

const steps = longTaskPlan().map((_, i) => `lt-step-${String(i).padStart(2, '0')}`);

describe('[real-client-long-task] the long task', () => {
  it('[real-client-long-task] the workspace is deterministic, its 44 files are 4-20 KB with paths, symbols and failure lines, and the plan is >= 40 large tool calls then the listing', () => {
    expect(longTaskFiles()).toEqual(longTaskFiles());
    const all = longTaskFiles();
    expect(all).toHaveLength(44);
    for (const f of all) expect(f.text.length, f.path).toBeGreaterThanOrEqual(4_000);
    for (const f of all) expect(f.text.length, f.path).toBeLessThanOrEqual(20_000);
    expect(all.filter((f) => f.path.startsWith('src/')).every((f) => /export function \w+Token\d+_\d+\(/.test(f.text) && f.text.includes(f.path))).toBe(true);
    const plan = longTaskPlan();
    expect(plan.filter((s) => s.kind !== 'list-failures').map((s) => s.path).sort()).toEqual(all.map((f) => f.path).sort());
    expect(plan.at(-1)!.kind).toBe('list-failures');
    const failures = failuresIn(all.map((f) => f.text).join('\n'));
    expect(failures.length).toBeGreaterThanOrEqual(5);
    expect(failures.every((f) => /^test\/pkg\d+\/case\d+\.test\.ts > \w+Token\d+_\d+$/.test(f))).toBe(true);
    expect(expectedLongTaskAnswer()).toBe(`LT-DONE: ${failures.length} failing tests: ${failures.join('; ')}`);
  });

  for (const [wire, drive] of [
    ['Anthropic', driveAnthropic],
    ['Responses', driveResponses],
  ] as const) {
    it(`[real-client-long-task] [real-client-validating] ${wire}: a client sending the whole history gets every step in order and the answer, nothing refused`, async () => {
      expect(await drive(undefined)).toBe(expectedLongTaskAnswer());
      expect(server!.calls.map((c) => [c.status, c.rule])).toEqual([...steps, 'lt-answer'].map((r) => [200, r]));
      expect(server!.unusedRules()).toEqual([]);
    });

    it(`[real-client-long-task] ${wire}: with every result but the newest two rewritten to placeholders, the script answers the same steps and the same answer, nothing refused`, async () => {
      expect(await drive(2)).toBe(expectedLongTaskAnswer());
      expect(server!.calls.map((c) => [c.status, c.rule])).toEqual([...steps, 'lt-answer'].map((r) => [200, r]));
      // The rewritten history really was smaller than the whole one would have been.
      const lastBody = JSON.stringify(server!.calls.at(-1)!.body);
      expect(lastBody.length).toBeLessThan(longTaskFiles().reduce((n, f) => n + f.text.length, 0) / 4);
    });
  }

  it('[real-client-long-task] [real-client-validating] a rewrite that drops a call but keeps its result is refused by the validating server, so a broken rewrite cannot pass unseen', async () => {
    server = await startScriptedServer({ rules: codexLongTask.rules(ctx), validation: codexLongTask.validation! });
    const orphan = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: LONG_TASK_PROMPT }] }, { type: 'function_call_output', call_id: 'call_lt_00', output: 'x' }];
    const reply = await postJson('/v1/responses', { model: 'gpt-5.5', input: orphan });
    expect(reply['error']['message']).toBe('No tool call found for function call output with call_id call_lt_00.');
    expect(server.calls[0]!.refusal).toBeDefined();
  });
});
