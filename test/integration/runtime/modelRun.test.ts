/**
 * The runtime through the official SDKs against real loopback servers that speak the Anthropic
 * messages and the OpenAI chat-completions wire formats: a primary delegates to a worker, the
 * worker's first prompt is refused with the provider's real context-limit error and it carries on
 * in a new generation, rate limits and server errors are retried, timeouts surface on the agent.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_CONTEXT_CONFIG } from '../../../engine/conversation/contextConfig';
import { checkAnthropicOrder, checkOpenAIOrder } from '../../support/providerValidity';
import { workspaceToolbox } from '../../../engine/host/workspaceToolbox';
import { createAnthropicProvider } from '../../../engine/node/providers/anthropicProvider';
import { createOpenAIProvider } from '../../../engine/node/providers/openaiProvider';
import type { Provider } from '../../../engine/providers/Provider';
import { AgentRuntime, type RuntimeEvent } from '../../../engine/runtime/AgentRuntime';
import { ModelDriver } from '../../../engine/runtime/ModelDriver';
import { L2_HEADING } from '../../../engine/runtime/composeRequest';
import { DEFAULT_TOOLS_CONFIG } from '../../../engine/node/tools/toolsConfig';
import { startAnthropicLoopback, startOpenAILoopback, type CapturedRequest, type LoopbackReply, type LoopbackServer } from '../../support/loopback';
import { identity, newEngine, quarterTokenizer } from '../../support/engineFixtures';
import { tempDir } from '../../support/tempDir';
import { ANSWERING_SERVER_TIMEOUT_MS } from '../../support/testTimeouts.mjs';

const KEY = 'sk-loopback-test-key-0123456789';
const servers: LoopbackServer[] = [];
const dirs: ReturnType<typeof tempDir>[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) d.remove();
});

function workspace(): string {
  const d = tempDir();
  dirs.push(d);
  mkdirSync(join(d.dir, 'src'), { recursive: true });
  writeFileSync(join(d.dir, 'src', 'parser.ts'), 'export function parse(text: string) {\n  return text.split(",");\n}\n');
  return d.dir;
}

/** Whose request this is: the canonical system prompt names the agent. */
const agentOf = (r: CapturedRequest): string => {
  const text = JSON.stringify(r.body);
  return /You are ([\w.-]+), a/.exec(text)?.[1] ?? 'unknown';
};

/**
 * The scripted session: the primary delegates and reads a file, then waits (lists files) until its
 * worker's report is in its context, then finishes; the worker's first prompt is refused once as
 * too long, then it greps and finishes. `extra` replies are served first (429s, 500s).
 */
function session(served: Map<string, number>): (r: CapturedRequest) => LoopbackReply {
  return (r) => {
    const who = agentOf(r);
    const n = (served.get(who) ?? 0) + 1;
    served.set(who, n);
    const body = JSON.stringify(r.body);
    if (who === 'primary') {
      if (n === 1) return { kind: 'toolCalls', text: 'Delegating the parser fix and reading it myself.', calls: [{ name: 'delegate', arguments: { role: 'worker', task: 'Fix the comma parser in src/parser.ts' } }, { name: 'read_file', arguments: { path: 'src/parser.ts' } }] };
      if (body.includes('Report of worker-1')) return { kind: 'text', text: 'The worker reported; the parser fix is complete.' };
      return { kind: 'toolCalls', text: 'Waiting for worker-1.', calls: [{ name: 'list_files', arguments: {} }] };
    }
    if (n === 1) return { kind: 'contextLimit', promptTokens: 210_000, limit: 200_000 };
    if (n === 2) return { kind: 'toolCalls', text: 'Looking for the split.', calls: [{ name: 'grep', arguments: { pattern: 'split', path: 'src' } }] };
    return { kind: 'text', text: 'We decided to trim each field. Fixed src/parser.ts.' };
  };
}

async function run(provider: Provider, root: string, events: RuntimeEvent[] = []) {
  const { engine, clock } = newEngine();
  const { toolbox, toolItems } = workspaceToolbox(root, DEFAULT_TOOLS_CONFIG);
  const rt = new AgentRuntime({ engine, driver: new ModelDriver(provider, toolbox), toolbox, toolItems, tokenizer: quarterTokenizer, clock, context: { ...DEFAULT_CONTEXT_CONFIG, maxTokens: 30_000 }, onEvent: (e) => events.push(e) });
  rt.addAgent(identity({ agentId: 'primary', parent: null, role: 'primary', task: 'Make the comma parser robust', model: 'claude-sonnet-4-5', budget: 8000 }));
  for (let i = 0; i < 30 && rt.runnable().length > 0; i++) {
    clock.advance(5_000);
    await rt.step();
  }
  return { rt, engine };
}

describe('the runtime through the Anthropic SDK', () => {
  it('[runtime-turn] [refresh-on-limit] [request-layers] completes a delegated task, refreshes on the real context-limit error and carries on in generation 2, retries 429 and 500', async () => {
    const served = new Map<string, number>();
    const server = await startAnthropicLoopback({ expectedKey: KEY, defaultReply: session(served), cacheMinTokens: 64 });
    servers.push(server);
    server.enqueue({ kind: 'rateLimit', retryAfterSeconds: 0 }, { kind: 'serverError', status: 500 });
    const retries: number[] = [];
    const provider = createAnthropicProvider({ apiKey: KEY, baseURL: server.url, timeoutMs: ANSWERING_SERVER_TIMEOUT_MS, maxRetries: 3, retryBaseMs: 1, sleep: async () => {}, onRetry: () => void retries.push(1) });
    const events: RuntimeEvent[] = [];
    const { rt, engine } = await run(provider, workspace(), events);

    expect(rt.status('primary')).toBe('done');
    expect(rt.status('worker-1')).toBe('done');
    expect(retries.length).toBe(2);
    // The worker's refused prompt refreshed it; the retried turn ran in the next generation, same id.
    const refreshed = events.filter((e) => e.type === 'context.refreshed');
    expect(refreshed).toEqual([expect.objectContaining({ agentId: 'worker-1', reason: expect.stringMatching(/prompt is too long/) })]);
    expect(rt.limitRetries('worker-1')).toBe(1);
    const workerCalls = rt.ledger.calls('worker-1');
    expect(workerCalls[0]!.generation).toBeGreaterThanOrEqual(2);
    expect(engine.identity('worker-1').agentId).toBe('worker-1');
    // The primary got the worker's report, not its transcript; the tools really ran in the workspace.
    expect(engine.items().some((i) => i.provenance.source === 'parent_report' && i.audience === 'primary')).toBe(true);
    expect(engine.items().some((i) => i.id.startsWith('tool:') && i.content.includes('return text.split'))).toBe(true);
    // Usage is the provider's, and later calls read the cache.
    const primaryCalls = rt.ledger.calls('primary');
    expect(primaryCalls.every((c) => !c.modeled)).toBe(true);
    expect(primaryCalls.slice(1).some((c) => c.usage.cacheRead > 0)).toBe(true);
    for (const id of ['primary', 'worker-1']) {
      const built = rt.conversation(id).manager.buildMessages({ transients: false });
      expect(checkAnthropicOrder(built)).toEqual([]);
      expect(checkOpenAIOrder(built)).toEqual([]);
    }

    // The exact bodies the SDK sent: breakpoints after L0+L1, after L2 and at the end of the history, never more than 4.
    const ok = server.requests.filter((r) => r.reply.kind === 'text' || r.reply.kind === 'toolCalls');
    for (const r of ok) {
      const system = r.body.system as { text: string; cache_control?: unknown }[];
      const marked = JSON.stringify(r.body).split('"cache_control"').length - 1;
      expect(marked).toBeLessThanOrEqual(4);
      expect(system[0]!.cache_control).toEqual({ type: 'ephemeral' });
      expect(system[0]!.text).toMatch(/^You are (primary|worker-1), a/);
      // L2 is one block per entry with the breakpoint on its last block only.
      const markedSystem = system.flatMap((b, i) => (b.cache_control ? [i] : []));
      const l2Start = system.findIndex((b) => b.text.startsWith(L2_HEADING));
      if (l2Start >= 0) {
        expect(markedSystem).toHaveLength(2);
        expect(markedSystem[1]).toBeGreaterThanOrEqual(l2Start);
        expect(system.slice(markedSystem[1]! + 1).every((b) => !b.text.startsWith(L2_HEADING))).toBe(true);
      } else expect(markedSystem).toEqual([0]);
      const messages = r.body.messages as { role: string; content: { type: string; text?: string; cache_control?: unknown }[] | string }[];
      const markedMessages = messages.flatMap((m, i) => (Array.isArray(m.content) && m.content.some((b) => b.cache_control) ? [i] : []));
      expect(markedMessages).toHaveLength(1);
      // The tail after the history breakpoint holds only this turn's transients (the <now> layer, skills).
      const tail = messages.slice(markedMessages[0]! + 1);
      for (const m of tail) expect(m.role).toBe('user');
      expect(r.headers['x-api-key'] ?? r.headers['authorization']).toContain(KEY);
    }
    expect(JSON.stringify(events)).not.toContain(KEY);
  });

  it('[providers] a provider that never answers surfaces as a timeout on the agent; the runtime and the other agents are unaffected', async () => {
    const server = await startAnthropicLoopback({ expectedKey: KEY, defaultReply: { kind: 'hang' } });
    servers.push(server);
    const provider = createAnthropicProvider({ apiKey: KEY, baseURL: server.url, timeoutMs: 150, maxRetries: 1, retryBaseMs: 1, sleep: async () => {} });
    const { rt } = await run(provider, workspace());
    expect(rt.status('primary')).toBe('failed');
    expect(rt.error('primary')).toMatch(/tim(ed|e) ?out/i);
    expect(rt.error('primary')).not.toContain(KEY);
    expect(rt.ledger.calls('primary')).toEqual([]);
  });
});

describe('the runtime through the OpenAI SDK', () => {
  it('[runtime-turn] [refresh-on-limit] completes the same delegated task over chat completions with prompt_cache_key per agent, streaming', async () => {
    const served = new Map<string, number>();
    const server = await startOpenAILoopback({ expectedKey: KEY, defaultReply: session(served) });
    servers.push(server);
    const provider = createOpenAIProvider({ apiKey: KEY, baseURL: server.url, timeoutMs: ANSWERING_SERVER_TIMEOUT_MS, maxRetries: 2, retryBaseMs: 1, sleep: async () => {} });
    const events: RuntimeEvent[] = [];
    const { engine, clock } = newEngine();
    const root = workspace();
    const { toolbox, toolItems } = workspaceToolbox(root, DEFAULT_TOOLS_CONFIG);
    const rt = new AgentRuntime({ engine, driver: new ModelDriver(provider, toolbox, { stream: true }), toolbox, toolItems, tokenizer: quarterTokenizer, clock, context: { ...DEFAULT_CONTEXT_CONFIG, maxTokens: 30_000 }, onEvent: (e) => events.push(e) });
    rt.addAgent(identity({ agentId: 'primary', parent: null, role: 'primary', task: 'Make the comma parser robust', model: 'gpt-5.1', budget: 8000 }));
    for (let i = 0; i < 30 && rt.runnable().length > 0; i++) {
      clock.advance(5_000);
      await rt.step();
    }
    expect(rt.error('primary') ?? 'ok').toBe('ok');
    expect(rt.status('primary')).toBe('done');
    expect(rt.status('worker-1')).toBe('done');
    expect(events.filter((e) => e.type === 'context.refreshed')).toHaveLength(1);
    const ok = server.requests.filter((r) => r.reply.kind === 'text' || r.reply.kind === 'toolCalls');
    expect(ok.every((r) => r.body.stream === true)).toBe(true);
    expect(new Set(ok.map((r) => `${agentOf(r)}=${r.body.prompt_cache_key}`))).toEqual(new Set(['primary=primary', 'worker-1=worker-1']));
    expect(ok.every((r) => r.body.messages[0].role === 'system' && /^You are/.test(r.body.messages[0].content))).toBe(true);
    expect(rt.ledger.calls('primary').slice(1).some((c) => c.usage.cacheRead > 0)).toBe(true);
  });
});
