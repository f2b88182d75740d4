/**
 * The gateway's pure vocabulary (issue 23): what a client sent through the local gateway, how it is
 * split into the blocks a provider caches by, what the provider billed, and what the engine did to
 * it. The Node server (`engine/node/gateway`) moves bytes; everything that decides lives in the pure
 * core (`engine/gateway`) and is tested on plain values.
 */

/** The wire APIs the gateway speaks. */
export type GatewayApi = 'anthropic-messages' | 'anthropic-count-tokens' | 'openai-responses' | 'openai-chat';

/** The upstream a call goes to. */
export type GatewayProvider = 'anthropic' | 'openai';

export type GatewayMode = 'observe' | 'manage';

/**
 * One cacheable unit of a request, in the order the provider reads the prompt: Anthropic reads
 * tools, then system, then messages; OpenAI Responses reads instructions, tools, then input items;
 * Chat Completions reads tools, then messages. `key` names it stably across calls of a thread
 * (`tools`, `system`, `message 3`, `input 7`), `hash` is the SHA-256 hex of its canonical JSON.
 */
export interface RequestBlock {
  key: string;
  kind: 'tools' | 'system' | 'message' | 'input';
  /** Index within messages / input items; undefined for tools and system. */
  index?: number;
  /** The message's or item's role or type (`user`, `assistant`, `function_call_output`, …). */
  role?: string;
  /** UTF-8 bytes of its canonical JSON. */
  bytes: number;
  hash: string;
  /** Carries a client `cache_control` breakpoint (Anthropic). */
  breakpoint?: boolean;
}

/** A request as the gateway understood it; `body` is the parsed JSON, untouched. */
export interface ParsedRequest {
  api: GatewayApi;
  provider: GatewayProvider;
  model: string;
  stream: boolean;
  blocks: RequestBlock[];
  /** The client's own session id when the request names one (Claude Code's `metadata.user_id` session, Codex's `session_id` header or `prompt_cache_key`). */
  clientSessionId?: string;
  /** The client name from its `user-agent` (`claude-cli`, `codex_exec`, …), when known. */
  client?: string;
  /** The thread the client names itself (a Claude Code subagent's `x-claude-code-agent-id`, Codex's `thread-id`), when it does. */
  clientThread?: ClientThread;
  body: Record<string, unknown>;
}

/** A thread as the client names it in its headers. */
export interface ClientThread {
  id: string;
  /** The parent thread's id, when the client names it (Codex `x-codex-parent-thread-id`). */
  parent?: string;
  /** The client's word for what the thread is (`subagent`, Codex's `collab_spawn`, `compact`, `review`, …). */
  kind?: string;
}

/** Where a thread's cache broke at this call: the first block that differs from the thread's previous request. */
export interface CacheBreak {
  /** The first changed block's key, or `'appended'` when every earlier block is unchanged and only new blocks follow, or `'first call'`. */
  at: string;
  /** Index of that block in this request's block list (-1 for `first call`). */
  blockIndex: number;
  /** Bytes of the request before that block (the part that could be read from cache). */
  unchangedBytes: number;
  /** The provider's own words for the miss, when its response gave any. */
  providerReason?: string;
}

/** Billed usage of one call as the provider reported it; parts are disjoint. */
export interface GatewayUsage {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  /** Of `cacheWrite`, the tokens written with a 1-hour lifetime. */
  cacheWrite1h: number;
  output: number;
}

/** What the engine did to one request in manage mode. */
export interface RewriteRecord {
  /** The thread's generation this request belongs to (1-based); a new one starts only at a boundary. */
  generation: number;
  /** This request opened the generation (its rewritten prefix differs from the previous request's). */
  boundary: boolean;
  /** Why the generation began (`first call`, `budget reached …`, `pin changed`, …) when `boundary`. */
  reason?: string;
  /** Blocks replaced by placeholders: key, tool name, tokens before and after, and why. */
  compressed: { key: string; tool?: string; beforeTokens: number; afterTokens: number; why: string }[];
  /** Blocks removed (only ever by an operator's removal); with why. */
  dropped: { key: string; why: string }[];
  /** Breakpoints the gateway placed (block keys), the client's own kept. */
  breakpoints: string[];
  /** Token counts (o200k) of the original and the rewritten request. */
  originalTokens: number;
  rewrittenTokens: number;
}

/** Manage mode: how the client's original request stands against the thread's previous original, for the savings estimate (`managedSaving`). */
export interface OriginalPrefix {
  /** The original's cache break against the thread's previous original (observe mode's measure). */
  cacheBreak: CacheBreak;
  /** The original's bytes (the sum of its blocks), the denominator of `cacheBreak.unchangedBytes`. */
  bytes: number;
  /** o200k tokens of the thread's previous original request, when the gateway counted them. */
  previousTokens?: number;
}

/** One call through the gateway, as the control room shows it. */
export interface GatewayCall {
  id: string;
  sessionId: string;
  threadId: string;
  api: GatewayApi;
  model: string;
  mode: GatewayMode;
  startedAt: number;
  /** ms from the request's last byte to the upstream's first byte (undefined until it came). */
  firstByteMs?: number;
  durationMs?: number;
  status?: number;
  /** The upstream's error type and message when it refused (passed to the client unchanged). */
  error?: string;
  usage?: GatewayUsage;
  costUsd?: number;
  /** Prefix reuse in bytes against the thread's previous request (`[prefix-reuse-def]`), of what was sent upstream. */
  prefixReuse: number;
  /** Bytes of what was sent upstream (the sum of its blocks), the denominator of `prefixReuse`. */
  promptBytes?: number;
  cacheBreak: CacheBreak;
  rewrite?: RewriteRecord;
  /** Manage mode: the original request against the thread's previous original (what observe mode would have measured). */
  original?: OriginalPrefix;
  /** The engine failed on this request and the original went upstream unchanged; why. */
  fallback?: string;
}

/**
 * One request as the Node server hands it to the pure side. `body` is decoded (the client's
 * `content-encoding` undone); the server keeps the raw bytes and sends those when the decision is
 * `'original'`. Headers are lower-case; `x-api-key` and `authorization` are never in here (the key
 * goes upstream from the server's own copy and is never stored, logged or shown).
 */
export interface GatewayRequestIn {
  method: string;
  /** Path with query, as received (`/v1/messages?beta=true`). */
  path: string;
  headers: Readonly<Record<string, string>>;
  body: Uint8Array;
  /** ms since epoch when the request's last byte arrived. */
  receivedAt: number;
}

/** What the server is told to do with a request. */
export type GatewayDecision =
  | {
      kind: 'forward';
      /** `'original'`: the client's raw bytes, unchanged; otherwise the bytes to send (sent unencoded, with a fresh content-length). */
      body: 'original' | Uint8Array;
      sink?: ExchangeSink;
      /** Work that must not delay the request (parsing and hashing in observe mode): the server runs it after the request went upstream. */
      afterForward?: () => void;
    }
  | {
      /** Answer the client without going upstream (a request manage mode cannot parse, in the provider's error shape). */
      kind: 'reply';
      status: number;
      contentType: string;
      body: string;
      sink?: ExchangeSink;
    };

/** Receives what the upstream answered, as the server passes it to the client (chunks decoded from any `content-encoding`). */
export interface ExchangeSink {
  upstreamStart(status: number, headers: Readonly<Record<string, string>>, at: number): void;
  upstreamChunk(chunk: Uint8Array, at: number): void;
  /** The exchange ended: normally, or with the fault the client saw (`cut stream`, `timeout`, `client closed`, a socket error). */
  upstreamEnd(outcome: { at: number; error?: string }): void;
}

/** The pure side of the gateway, as the server calls it. A throw means: forward the original unchanged and record why. */
export interface GatewayHandler {
  handle(request: GatewayRequestIn): GatewayDecision;
  /** The handler threw on `request`; the original went upstream (`[gateway-engine-fallback]`). */
  failed(request: GatewayRequestIn, error: unknown): void;
}
