/**
 * Loopback provider servers for tests: real `node:http` servers on 127.0.0.1 (port 0) that speak
 * the OpenAI chat-completions and the Anthropic messages wire formats closely enough for the
 * official SDKs, streaming (SSE with the real event names and chunk shapes) and not.
 *
 * ```ts
 * const server = await startAnthropicLoopback();            // or startOpenAILoopback()
 * server.enqueue(
 *   { kind: 'rateLimit', retryAfterSeconds: 2 },            // first request: 429 + retry-after
 *   { kind: 'toolCalls', calls: [{ name: 'read', arguments: { path: 'a.ts' } }] },
 *   { kind: 'text', text: 'done' },                         // then text; later requests get the default
 * );
 * const provider = createAnthropicProvider({ apiKey: 'sk-test', baseURL: server.url, timeoutMs: 500, maxRetries: 2, retryBaseMs: 1, sleep: async () => {} });
 * await provider.complete(request);
 * server.requests[1].body;       // the exact JSON body the SDK sent (assert cache_control placement…)
 * server.requests[1].headers;    // lower-case headers (x-api-key, anthropic-version…)
 * server.requests[1].usage;      // the usage object the server reported
 * await server.close();          // also drops hung connections
 * ```
 *
 * Replies (`LoopbackReply`): `text`, `toolCalls`, `contextLimit` (each provider's real 400 body),
 * `rateLimit` (429 + `retry-after`), `serverError` (5xx), `auth` (401), `hang` (never answers, or
 * stalls after the first stream event), `malformed` (truncated JSON or the wrong shape),
 * `streamError` (the provider's in-stream error), `raw`. A reply can also be a function of the
 * captured request. Options: `defaultReply`, `expectedKey` (other keys get a 401),
 * `cacheMinTokens`, and `echoKeyInAuthError` (to test that a key echoed by the server is redacted).
 *
 * Usage is simulated (see `promptCache.ts`): 1 token = 4 characters of the serialised prompt;
 * OpenAI reports as cached the longest common prefix with any earlier successful request (from
 * 1024 tokens, in 128-token steps); Anthropic reads the longest earlier-written prefix up to the
 * request's last `cache_control` breakpoint and writes the rest of the breakpointed prefix.
 */
export { startAnthropicLoopback, type AnthropicLoopback } from './anthropicLoopback';
export { startOpenAILoopback, type OpenAILoopback } from './openaiLoopback';
export {
  AnthropicPromptCache,
  approxTokens,
  OpenAIPromptCache,
  serializeAnthropicPrompt,
} from './promptCache';
export type { CapturedRequest, LoopbackReply, LoopbackServer } from './server';
