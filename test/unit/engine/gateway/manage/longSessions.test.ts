import { describe, expect, it } from 'vitest';
import { createThreadManager, type ManagedApi, type ManageControls } from '../../../../../engine/gateway/manage/createThreadManager';
import type { RewriteRecord } from '../../../../../engine/gateway/types';
import { costUsd, listPriceOf } from '../../../../../engine/pricing/costUsd';
import { estimateTokens } from '../../../../../engine/tokens/estimateTokens';
import { anthropicRequest, chatRequest, generateSession, responsesRequest, type SessionStep } from '../../../../support/gatewaySessions';
import { roleSequence, wireProblems } from '../../../../support/gatewayWireValidity';
import { AnthropicPromptCache, OpenAIPromptCache, serializeAnthropicPrompt, serializeOpenAIPrompt } from '../../../../support/loopback/promptCache';

type Json = Record<string, unknown>;
const tokenizer = { encoding: 'utf8-bytes/4', count: estimateTokens };
const STEPS = 64;
const RENDER: Record<ManagedApi, (steps: readonly SessionStep[], n: number) => Json> = { 'anthropic-messages': anthropicRequest, 'openai-responses': responsesRequest, 'openai-chat': chatRequest };
const APIS = Object.keys(RENDER) as ManagedApi[];

const listOf = (api: ManagedApi, body: Json) => (api === 'openai-responses' ? body['input'] : body['messages']) as Json[];
/** Each entry's JSON without cache_control markers (where a marker sits does not change the cached prefix). */
const canon = (api: ManagedApi, body: Json) => listOf(api, body).map((m) => JSON.stringify(m, (k, v: unknown) => (k === 'cache_control' ? undefined : v)));

/** Every result's key and content in a body, in order. */
function resultsOf(api: ManagedApi, body: Json): { key: string; content: unknown }[] {
  const out: { key: string; content: unknown }[] = [];
  for (const m of listOf(api, body)) {
    if (api === 'anthropic-messages') for (const b of Array.isArray(m['content']) ? (m['content'] as Json[]) : []) { if (b['type'] === 'tool_result') out.push({ key: String(b['tool_use_id']), content: b['content'] }); }
    else if (api === 'openai-chat') { if (m['role'] === 'tool') out.push({ key: String(m['tool_call_id']), content: m['content'] }); }
    else if (String(m['type']).endsWith('_output')) out.push({ key: String(m['call_id']), content: m['output'] });
  }
  return out;
}

function markerCount(body: Json): number {
  return (JSON.stringify(body).match(/"cache_control"/g) ?? []).length;
}

interface Run {
  records: RewriteRecord[];
  originals: Json[];
  rewritten: Json[];
}

function runSession(api: ManagedApi, seed: number, controlsAt?: (n: number) => ManageControls): Run {
  const steps = generateSession(seed, STEPS);
  const manager = createThreadManager({ tokenizer, contextWindow: 200_000 });
  const run: Run = { records: [], originals: [], rewritten: [] };
  for (let n = 1; n <= STEPS + 1; n++) {
    const body = RENDER[api](steps, n);
    const before = JSON.stringify(body);
    const { body: out, record } = manager.rewrite(api, body, controlsAt?.(n));
    expect(JSON.stringify(body)).toBe(before);
    run.originals.push(body);
    run.rewritten.push(out);
    run.records.push(record);
  }
  return run;
}

describe.each(APIS)('%s, generated sessions of 64 tool calls with large outputs', (api) => {
  it.each([1, 2, 3])('[gateway-manage-pairing] [gateway-manage-prefix] [gateway-manage-hysteresis] seed %i: valid requests, pairing kept, prefix stable within a generation, rare boundaries', (seed) => {
    const run = runSession(api, seed);
    let boundaries = 0;
    run.rewritten.forEach((out, i) => {
      const original = run.originals[i]!;
      const record = run.records[i]!;
      expect(wireProblems(api, out)).toEqual([]);
      expect(roleSequence(api, out)).toEqual(roleSequence(api, original));
      expect(resultsOf(api, out).map((r) => r.key)).toEqual(resultsOf(api, original).map((r) => r.key));
      if (record.boundary) boundaries += 1;
      if (i > 0 && !record.boundary) {
        const previous = canon(api, run.rewritten[i - 1]!).join('\n');
        expect(canon(api, out).join('\n').startsWith(previous)).toBe(true);
        expect(record.compressed.map((c) => c.key)).toEqual(run.records[i - 1]!.compressed.map((c) => c.key));
        expect(record.generation).toBe(run.records[i - 1]!.generation);
      }
      if (api === 'anthropic-messages') {
        expect(markerCount(out)).toBeLessThanOrEqual(4);
        // The client's own markers (system and the last block) stay where it put them.
        expect((out['system'] as Json[])[0]!['cache_control']).toEqual({ type: 'ephemeral' });
        const last = (out['messages'] as Json[]).at(-1)!['content'] as Json[];
        expect(last.at(-1)!['cache_control']).toEqual({ type: 'ephemeral' });
      }
    });
    const last = run.records.at(-1)!;
    console.log(`${api} seed ${seed}: ${run.records.length} calls, ${boundaries} boundaries, last request ${last.originalTokens} -> ${last.rewrittenTokens} tokens, ${last.compressed.length} results hidden`);
    expect(run.records[0]!.boundary).toBe(true);
    expect(boundaries).toBeGreaterThan(1);
    // Each budget boundary frees the 15% band between the watermarks; results of 1k-5k tokens refill it in no fewer than 6 calls.
    expect(boundaries).toBeLessThanOrEqual(Math.ceil(run.records.length / 6));
    expect(last.rewrittenTokens).toBeLessThanOrEqual(0.4 * 200_000);
    expect(last.originalTokens).toBeGreaterThan(0.4 * 200_000);
  });

  it('[gateway-manage-controls] pins are never hidden, a removal keeps the pairing and is recorded in dropped', () => {
    const steps = generateSession(7, STEPS);
    const pinned = [steps[0]!.id, steps[3]!.id];
    const removed = steps[5]!.id;
    const run = runSession(api, 7, (n) => (n >= 20 ? { pins: pinned, removals: [removed] } : {}));
    const opened = run.records[19]!;
    expect(opened.boundary).toBe(true);
    expect(opened.reason).toMatch(/pins or removals/);
    run.records.forEach((record, i) => {
      const results = new Map(resultsOf(api, run.rewritten[i]!).map((r) => [r.key, r.content]));
      const originals = new Map(resultsOf(api, run.originals[i]!).map((r) => [r.key, r.content]));
      if (i >= 19) {
        for (const key of pinned) expect(results.get(key)).toEqual(originals.get(key));
        expect(record.compressed.map((c) => c.key)).not.toContain(pinned[0]);
        expect(record.dropped).toEqual([{ key: removed, why: 'removed by the operator' }]);
        expect(String(results.get(removed))).toMatch(/^\[strata: \d+-line output of .* removed by the operator/);
      }
    });
    expect(run.records.at(-1)!.compressed.length).toBeGreaterThan(0);
  });
});

describe('[gateway-manage-savings] billed prompt tokens under a simulated prefix cache', () => {
  it('an Anthropic session of 64 tool calls bills at least 40% fewer prompt tokens managed than observed', () => {
    const run = runSession('anthropic-messages', 11);
    const observe = new AnthropicPromptCache();
    const manage = new AnthropicPromptCache();
    const price = listPriceOf('claude-sonnet-4-5')!.perMTok;
    const totals = { observe: 0, manage: 0, observeUsd: 0, manageUsd: 0 };
    const reads: number[] = [];
    run.originals.forEach((original, i) => {
      const a = serializeAnthropicPrompt(original);
      const o = observe.measure(a);
      observe.remember(a);
      const b = serializeAnthropicPrompt(run.rewritten[i]!);
      const m = manage.measure(b);
      manage.remember(b);
      totals.observe += o.input + o.cacheRead + o.cacheWrite;
      totals.manage += m.input + m.cacheRead + m.cacheWrite;
      totals.observeUsd += costUsd({ ...o, cacheWrite1h: 0, output: 0 }, price).prompt;
      totals.manageUsd += costUsd({ ...m, cacheWrite1h: 0, output: 0 }, price).prompt;
      if (i > 0 && !run.records[i]!.boundary) reads.push(m.cacheRead / (m.input + m.cacheRead + m.cacheWrite));
    });
    const sortedReads = [...reads].sort((x, y) => x - y);
    console.log(`anthropic: billed prompt ${totals.observe} observed vs ${totals.manage} managed (-${(100 * (1 - totals.manage / totals.observe)).toFixed(1)}%); $${totals.observeUsd.toFixed(3)} vs $${totals.manageUsd.toFixed(3)}; cache read share on non-boundary calls: min ${sortedReads[0]!.toFixed(3)}, median ${sortedReads[Math.floor(reads.length / 2)]!.toFixed(3)}`);
    expect(totals.manage).toBeLessThanOrEqual(0.6 * totals.observe);
    expect(totals.manageUsd).toBeLessThan(totals.observeUsd);
  });

  it('a Chat Completions session of 64 tool calls bills at least 40% fewer prompt tokens managed than observed', () => {
    const run = runSession('openai-chat', 12);
    const observe = new OpenAIPromptCache();
    const manage = new OpenAIPromptCache();
    let observed = 0;
    let managed = 0;
    run.originals.forEach((original, i) => {
      const a = serializeOpenAIPrompt(original);
      observed += observe.measure(a).promptTokens;
      observe.remember(a);
      const b = serializeOpenAIPrompt(run.rewritten[i]!);
      managed += manage.measure(b).promptTokens;
      manage.remember(b);
    });
    console.log(`openai-chat: billed prompt ${observed} observed vs ${managed} managed (-${(100 * (1 - managed / observed)).toFixed(1)}%)`);
    expect(managed).toBeLessThanOrEqual(0.6 * observed);
  });
});
