import { describe, expect, it } from 'vitest';
import { createThreadManager } from '../../../../../engine/gateway/manage/createThreadManager';
import { ManageError } from '../../../../../engine/gateway/manage/ManageError';
import { placeBreakpoint, countBreakpoints } from '../../../../../engine/gateway/manage/anthropicBreakpoints';
import { placeholderText } from '../../../../../engine/gateway/manage/placeholder';
import { estimateTokens } from '../../../../../engine/tokens/estimateTokens';
import { anthropicRequest, generateSession, responsesRequest } from '../../../../support/gatewaySessions';

type Json = Record<string, unknown>;
const tokenizer = { encoding: 'utf8-bytes/4', count: estimateTokens };
const options = { tokenizer, contextWindow: 100_000, highWatermark: 0.4, lowWatermark: 0.25 };
const steps = generateSession(5, 40);
const resultContent = (body: Json, key: string): unknown => {
  for (const m of body['messages'] as Json[]) for (const b of Array.isArray(m['content']) ? (m['content'] as Json[]) : []) if (b['tool_use_id'] === key) return b['content'];
  return undefined;
};

describe('[gateway-manage-placeholder] the text that stands for a hidden result', () => {
  const output = ['> npm test', '  ✓ src/a.ts passes', 'FAIL src/billing/invoice.py > InvoiceTotal rounds (expected 12.5)', 'Traceback (most recent call last):', '  File "/srv/app/billing/invoice.py", line 42, in total_of', 'Error: 1 test failed', 'exit code 1'].join('\n');
  const result = { key: 'toolu_1', at: 3, tool: 'Bash', input: 'npm test', text: output, otherParts: 0, isError: true };

  it('keeps the tool and its input, the size hidden, the exit code, failures, paths and symbols', () => {
    const text = placeholderText(result, 3, 1234);
    expect(text).toMatch(/^\[strata: 7-line output of Bash\(npm test\) hidden at generation 3 \(~1,234 tokens\); exit 1; error; failures: /);
    expect(text).toContain('FAIL src/billing/invoice.py > InvoiceTotal rounds (expected 12.5)');
    expect(text).toContain('/srv/app/billing/invoice.py');
    expect(text).toContain('total_of');
    expect(text.endsWith(']')).toBe(true);
  });

  it('is the same bytes every time for the same result, and short beside a long output', () => {
    const long = { ...result, text: `${output}\n${'  ✓ src/a.ts case passes in 3 ms\n'.repeat(2000)}` };
    expect(placeholderText(long, 2, 9000)).toBe(placeholderText(long, 2, 9000));
    expect(placeholderText(long, 2, 9000).length).toBeLessThan(1500);
  });
});

describe('[gateway-manage-hysteresis] generations', () => {
  it('opens a generation on the first call, then only when the high watermark is passed, and brings the request under the low one', () => {
    const manager = createThreadManager(options);
    const records = Array.from({ length: 40 }, (_, i) => manager.rewrite('anthropic-messages', anthropicRequest(steps, i + 1)).record);
    expect(records[0]).toMatchObject({ generation: 1, boundary: true, reason: 'first call', compressed: [] });
    const budget = records.filter((r, i) => i > 0 && r.boundary);
    expect(budget.length).toBeGreaterThan(0);
    for (const r of budget) {
      expect(r.reason).toMatch(/^budget reached: \d+ tokens over the high watermark 40000$/);
      expect(r.rewrittenTokens).toBeLessThanOrEqual(25_000);
    }
    for (const r of records) expect(r.rewrittenTokens).toBeLessThanOrEqual(40_000 + 5_000 * 1.1);
    expect(manager.generations().total).toBe(records.filter((r) => r.boundary).length);
  });

  it('[gateway-manage-window] protects the newest results and the current turn, and never hides a result under minResultTokens', () => {
    const manager = createThreadManager({ ...options, keepLastResults: 3, keepLastTokens: 0, minResultTokens: 1_500 });
    let record;
    for (let n = 1; n <= 40; n++) record = manager.rewrite('anthropic-messages', anthropicRequest(steps, n)).record;
    const hidden = new Set(record!.compressed.map((c) => c.key));
    for (const s of steps.slice(36, 39)) expect(hidden.has(s.id)).toBe(false);
    for (const c of record!.compressed) expect(c.beforeTokens).toBeGreaterThanOrEqual(1_500);
    expect(hidden.size).toBeGreaterThan(0);
  });

  it('[gateway-manage-diverge] a client that edits its history starts a new generation with that reason', () => {
    const manager = createThreadManager(options);
    for (let n = 1; n <= 30; n++) manager.rewrite('anthropic-messages', anthropicRequest(steps, n));
    const compacted = anthropicRequest(steps, 31);
    (compacted['messages'] as Json[]).splice(1, 4);
    const { record } = manager.rewrite('anthropic-messages', compacted);
    expect(record).toMatchObject({ boundary: true });
    expect(record.reason).toMatch(/^the client's history diverged at entry 1 /);
  });
});

describe('[gateway-manage-count-tokens] count_tokens', () => {
  it('answers for the current generation rewritten, and changes nothing', () => {
    const manager = createThreadManager(options);
    let last;
    for (let n = 1; n <= 30; n++) last = manager.rewrite('anthropic-messages', anthropicRequest(steps, n));
    const { model: _m, max_tokens: _x, stream: _s, ...counted } = anthropicRequest(steps, 30);
    const count = manager.rewriteCountTokens(counted);
    expect(count.record.compressed).toEqual(last!.record.compressed);
    expect(count.record.rewrittenTokens).toBe(last!.record.rewrittenTokens);
    for (const c of last!.record.compressed) expect(resultContent(count.body, c.key)).toEqual(resultContent(last!.body, c.key));
    const again = manager.rewrite('anthropic-messages', anthropicRequest(steps, 30));
    expect(again.record).toMatchObject({ boundary: false, generation: last!.record.generation });
    expect(JSON.stringify(again.body)).toBe(JSON.stringify(last!.body));
  });
});

describe('[gateway-manage-bad-input] a body the manager cannot read', () => {
  it.each([
    ['not an object', [1, 2]],
    ['no messages', { model: 'x' }],
    ['a message without a role', { messages: [{ content: 'hi' }] }],
    ['a tool_result without an id', { messages: [{ role: 'user', content: [{ type: 'tool_result', content: 'x' }] }] }],
  ])('%s: a typed error, and the thread is unchanged', (_name, body) => {
    const manager = createThreadManager(options);
    const first = manager.rewrite('anthropic-messages', anthropicRequest(steps, 3));
    expect(() => manager.rewrite('anthropic-messages', body)).toThrow(ManageError);
    const next = manager.rewrite('anthropic-messages', anthropicRequest(steps, 4));
    expect(next.record).toMatchObject({ generation: first.record.generation, boundary: false });
  });

  it('a Responses input item without a call_id, options out of range, and contradicting controls are refused', () => {
    const manager = createThreadManager(options);
    expect(() => manager.rewrite('openai-responses', { input: [{ type: 'function_call_output', output: 'x' }] })).toThrow(/input\.0\.call_id must be a string/);
    expect(() => createThreadManager({ ...options, lowWatermark: 0.35 })).toThrow(/at least 0.1 below/);
    expect(() => manager.rewrite('openai-responses', responsesRequest(steps, 3), { pins: ['a'], removals: ['a'] })).toThrow(/both pinned and removed: a/);
  });
});

describe('[gateway-manage-breakpoints] Anthropic cache_control markers', () => {
  const body = (marks: number): Json => ({
    system: [{ type: 'text', text: 'sys', ...(marks > 0 ? { cache_control: { type: 'ephemeral' } } : {}) }],
    tools: [1, 2, 3].map((i) => ({ name: `t${i}`, input_schema: {}, ...(marks > i ? { cache_control: { type: 'ephemeral' } } : {}) })),
    messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }, { role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, { role: 'user', content: [{ type: 'text', text: 'more' }] }],
  });

  it('adds one at the end of the last message when there is room, and none when the client uses four', () => {
    const placed = placeBreakpoint(body(2), 0);
    expect(placed.placed).toEqual(['message 2']);
    expect(countBreakpoints(placed.body)).toBe(3);
    expect(placeBreakpoint(body(4), 0)).toEqual({ body: body(4), placed: [] });
  });

  it('when the client marks the last message, marks the end of the previous request instead, an hour long if a later marker is', () => {
    const b = body(1);
    const messages = b['messages'] as Json[];
    messages[2] = { role: 'user', content: [{ type: 'text', text: 'more', cache_control: { type: 'ephemeral', ttl: '1h' } }] };
    const placed = placeBreakpoint(b, 2);
    expect(placed.placed).toEqual(['message 1']);
    expect(((placed.body['messages'] as Json[])[1]!['content'] as Json[])[0]!['cache_control']).toEqual({ type: 'ephemeral', ttl: '1h' });
    expect(((placed.body['messages'] as Json[])[2]!['content'] as Json[])[0]!['cache_control']).toEqual({ type: 'ephemeral', ttl: '1h' });
  });
});

describe('[gateway-manage-cheap] token counts', () => {
  it('counts only the entries and results a call adds, never the whole request again', () => {
    const texts: number[] = [];
    const manager = createThreadManager({ ...options, tokenizer: { encoding: 'spy', count: (t) => (texts.push(t.length), estimateTokens(t)) } });
    manager.rewrite('anthropic-messages', anthropicRequest(steps, 20));
    const request = JSON.stringify(anthropicRequest(steps, 21)).length;
    texts.length = 0;
    manager.rewrite('anthropic-messages', anthropicRequest(steps, 21));
    const counted = texts.reduce((a, b) => a + b, 0);
    // The two new messages (a tool_use and its result, counted as an entry and as a result text).
    expect(counted).toBeLessThan(3 * (JSON.stringify(steps[19]).length + 200));
    expect(counted).toBeLessThan(request / 5);
  });
});

describe('[gateway-manage-cheap] entries told apart by the caller\'s keys', () => {
  // As the gateway's block hashes are: without markers, a string content as its one text block.
  const unmarked = (_key: string, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([k]) => k !== 'cache_control')) : v);
  const keysOf = (body: Json) => ({ entries: (body['messages'] as Json[]).map((m) => `k:${m['role']}:${JSON.stringify(typeof m['content'] === 'string' ? [{ type: 'text', text: m['content'] }] : m['content'], unmarked)}`), fixed: 'tools+system' });
  it('with one key per entry, a message re-sent in another form but with its key is the same entry; with any other count the JSON decides', () => {
    const first = anthropicRequest(steps, 10);
    const asBlock = JSON.parse(JSON.stringify(first)) as Json;
    const messages = asBlock['messages'] as Json[];
    // The first message, written the other way: a string as its one text block, or that block as a string.
    const plainAt = 0;
    const content = messages[0]!['content'];
    const oneText = Array.isArray(content) && content.length === 1 && (content[0] as Json)['type'] === 'text' ? ((content[0] as Json)['text'] as string) : undefined;
    expect(typeof content === 'string' || oneText !== undefined).toBe(true);
    messages[0] = { ...messages[0], content: typeof content === 'string' ? [{ type: 'text', text: content }] : oneText };
    const next = anthropicRequest(steps, 11);
    (next['messages'] as Json[])[plainAt] = messages[plainAt]!;

    const keyed = createThreadManager(options);
    keyed.rewrite('anthropic-messages', first, {}, keysOf(first));
    expect(keyed.rewrite('anthropic-messages', next, {}, keysOf(next)).record.reason ?? '').not.toMatch(/diverged/);

    const byJson = createThreadManager(options);
    byJson.rewrite('anthropic-messages', first);
    expect(byJson.rewrite('anthropic-messages', next).record.reason).toMatch(/^the client's history diverged at entry /);

    const shortKeys = createThreadManager(options);
    const short = (b: Json) => ({ ...keysOf(b), entries: keysOf(b).entries.slice(1) });
    shortKeys.rewrite('anthropic-messages', first, {}, short(first));
    expect(shortKeys.rewrite('anthropic-messages', next, {}, short(next)).record.reason).toMatch(/^the client's history diverged at entry /);
  });
});

describe('[gateway-manage-record] what a rewrite records', () => {
  it('compressed entries carry the tool, tokens before and after and why; generations() is a plain value of each generation', () => {
    const manager = createThreadManager(options);
    let record;
    for (let n = 1; n <= 40; n++) record = manager.rewrite('anthropic-messages', anthropicRequest(steps, n)).record;
    const c = record!.compressed[0]!;
    expect(c.tool).toBe(steps.find((s) => s.id === c.key)!.tool);
    expect(c.afterTokens).toBeLessThan(c.beforeTokens);
    expect(c.why).toMatch(/^older than the protected window .* hidden at generation \d+/);
    expect(record!.originalTokens - record!.rewrittenTokens).toBe(record!.compressed.reduce((n, x) => n + x.beforeTokens - x.afterTokens, 0));
    const { generations } = manager.generations();
    expect(JSON.parse(JSON.stringify(generations))).toEqual(generations);
    const latest = generations.at(-1)!;
    expect(latest.generation).toBe(record!.generation);
    expect(latest.compressed).toEqual(record!.compressed);
    expect(latest.included.length + latest.compressed.length).toBe(39);
    expect(generations.reduce((n, g) => n + g.calls, 0)).toBe(40);
  });
});

describe('[gateway-manage-release] a released thread', () => {
  it('keeps its generations; its next call opens a generation under the watermark, and the call after goes on inside it', () => {
    const manager = createThreadManager(options);
    for (let n = 1; n <= 30; n++) manager.rewrite('anthropic-messages', anthropicRequest(steps, n));
    const before = manager.generations();
    manager.release();
    expect(manager.generations()).toEqual(before);
    const next = manager.rewrite('anthropic-messages', anthropicRequest(steps, 31)).record;
    expect(next).toMatchObject({ generation: before.total + 1, boundary: true, reason: expect.stringMatching(/^the thread came back after its state was released/) });
    expect(next.rewrittenTokens).toBeLessThanOrEqual(options.contextWindow * options.highWatermark);
    expect(next.compressed.length).toBeGreaterThan(0);
    const after = manager.rewrite('anthropic-messages', anthropicRequest(steps, 32)).record;
    expect(after).toMatchObject({ generation: before.total + 1, boundary: false });
    expect(after.compressed.map((c) => c.key)).toEqual(expect.arrayContaining(next.compressed.map((c) => c.key)));
    expect(manager.generations().total).toBe(before.total + 1);
  });
});
