import { costUsd, listPriceOf } from '../pricing/costUsd';
import type { GatewayApi, GatewayUsage } from './types';

/**
 * What a provider billed, from its own usage object, with the parts disjoint (`[gateway-usage]`):
 * - Anthropic: `input_tokens` (uncached), `cache_read_input_tokens`, `cache_creation_input_tokens`
 *   with its split `cache_creation.ephemeral_5m_input_tokens` / `ephemeral_1h_input_tokens`,
 *   `output_tokens`;
 * - OpenAI Responses: `input_tokens` includes `input_tokens_details.cached_tokens`, which is
 *   taken out of `input` (no cache writes are billed);
 * - Chat Completions: `prompt_tokens` includes `prompt_tokens_details.cached_tokens`, likewise.
 * Also the provider's error (`type: message`) and its own reason for a cache miss, when its
 * response gives one (Anthropic `diagnostics.cache_miss_reason`, OpenAI `prompt_cache_diagnostics`).
 */

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : 0);
const has = (o: Json, k: string): boolean => typeof o[k] === 'number';

/** Anthropic's usage object (a whole one, or a `message_delta`'s) over `base`: fields it names win. */
export function anthropicUsage(u: Json, base?: GatewayUsage): GatewayUsage {
  const out: GatewayUsage = base ? { ...base } : { input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0 };
  if (has(u, 'input_tokens')) out.input = count(u['input_tokens']);
  if (has(u, 'cache_read_input_tokens')) out.cacheRead = count(u['cache_read_input_tokens']);
  if (has(u, 'cache_creation_input_tokens')) out.cacheWrite = count(u['cache_creation_input_tokens']);
  const split = u['cache_creation'];
  if (isRecord(split) && has(split, 'ephemeral_1h_input_tokens')) out.cacheWrite1h = Math.min(count(split['ephemeral_1h_input_tokens']), out.cacheWrite);
  if (has(u, 'output_tokens')) out.output = count(u['output_tokens']);
  return out;
}

function openaiUsage(u: Json, inputKey: string, detailsKey: string, outputKey: string): GatewayUsage {
  const details = u[detailsKey];
  const total = count(u[inputKey]);
  const cached = Math.min(isRecord(details) ? count(details['cached_tokens']) : 0, total);
  return { input: total - cached, cacheRead: cached, cacheWrite: 0, cacheWrite1h: 0, output: count(u[outputKey]) };
}

/** The usage of a usage object of `api`'s shape. */
export function usageOfObject(api: GatewayApi, u: Json): GatewayUsage {
  if (api === 'openai-responses') return openaiUsage(u, 'input_tokens', 'input_tokens_details', 'output_tokens');
  if (api === 'openai-chat') return openaiUsage(u, 'prompt_tokens', 'prompt_tokens_details', 'completion_tokens');
  return anthropicUsage(u);
}

/** The usage of a whole (non-streamed) response body; undefined when it has none, and for count_tokens, which bills nothing. */
export function usageOfJson(api: GatewayApi, json: unknown): GatewayUsage | undefined {
  if (api === 'anthropic-count-tokens' || !isRecord(json)) return undefined;
  const u = json['usage'];
  return isRecord(u) ? usageOfObject(api, u) : undefined;
}

/** `type: message` of a provider error object (`{type, message}` or OpenAI's `{code, message}`). */
function describeError(e: Json): string {
  const kind = typeof e['type'] === 'string' ? e['type'] : typeof e['code'] === 'string' ? e['code'] : 'error';
  return typeof e['message'] === 'string' ? `${kind}: ${e['message']}` : kind;
}

/** The provider's error in a body (`{error: {...}}`, Anthropic's `{type:'error', error}`, a Responses `response.error`). */
export function upstreamErrorOf(json: unknown): string | undefined {
  if (!isRecord(json)) return undefined;
  if (isRecord(json['error'])) return describeError(json['error']);
  if (isRecord(json['response']) && isRecord(json['response']['error'])) return describeError(json['response']['error']);
  return undefined;
}

/** The provider's own reason for a cache miss in a response object, when it gives one. */
export function providerReasonOf(json: unknown): string | undefined {
  if (!isRecord(json)) return undefined;
  const diagnostics = json['diagnostics'];
  if (isRecord(diagnostics) && isRecord(diagnostics['cache_miss_reason'])) {
    const r = diagnostics['cache_miss_reason'];
    const missed = typeof r['cache_missed_input_tokens'] === 'number' ? ` (${r['cache_missed_input_tokens']} input tokens missed)` : '';
    return typeof r['type'] === 'string' ? `${r['type']}${missed}` : undefined;
  }
  const openai = json['prompt_cache_diagnostics'];
  if (isRecord(openai)) {
    const reason = openai['reason'] ?? openai['cache_miss_reason'] ?? openai['type'];
    if (typeof reason === 'string') return reason;
    if (isRecord(reason) && typeof reason['type'] === 'string') return reason['type'];
  }
  return undefined;
}

/** The call's list-price cost in dollars (`[cost-usd]`), undefined when the model has no list price. */
export function costOfUsage(model: string, usage: GatewayUsage): number | undefined {
  const price = listPriceOf(model);
  return price ? costUsd(usage, price.perMTok).total : undefined;
}
