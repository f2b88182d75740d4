import { apiOfPath, providerOf } from '../gateway/apiOfPath';
import { BlockHashMemo } from '../gateway/BlockHashMemo';
import { blockPrefixReuse, bytesOf, cacheBreak } from '../gateway/cacheBreak';
import { CallExchange, type GatewayCallUpdate } from '../gateway/CallExchange';
import { GatewaySessions } from '../gateway/GatewaySessions';
import { createThreadManager, type EntryKeys, type ManageControls, type ThreadManager } from '../gateway/manage/createThreadManager';
import { ManageError } from '../gateway/manage/ManageError';
import { resolveOptions, type ThreadManagerOptions } from '../gateway/manage/managerOptions';
import { createObserveHandler, type UnobservedRequest } from '../gateway/observeHandler';
import { isParseFailure, parseRequest } from '../gateway/parseRequest';
import { blocksOf } from '../gateway/requestBlocks';
import type { GatewayApi, GatewayCall, GatewayDecision, GatewayHandler, GatewayMode, GatewayProvider, GatewayRequestIn, RequestBlock } from '../gateway/types';
import type { IdSource } from '../ports/IdSource';

/** Manage mode's settings for every thread; the tokenizer is the gateway's (o200k). */
export type ManageSettings = Omit<ThreadManagerOptions, 'tokenizer' | 'contextWindow'> & { contextWindow?: number };

/** A managed call's request as the client sent it and as it went upstream (JSON text). */
export interface ManagedRequest {
  call: GatewayCall;
  original: string;
  /** Undefined when the original went upstream (an engine fault, or a request left as it came). */
  rewritten?: string;
}

/** A request manage mode refused without going upstream, and why. */
export interface RefusedRequest {
  at: number;
  path: string;
  api: GatewayApi;
  bytes: number;
  reason: string;
}

export interface ModeHandlerOptions {
  ids: IdSource;
  /** The mode of a session the gateway has not seen yet. */
  defaultMode: GatewayMode;
  tokenizer: ThreadManagerOptions['tokenizer'];
  manage?: ManageSettings;
  onCall(update: GatewayCallUpdate): void;
  onUnobserved?(request: UnobservedRequest): void;
  onManaged?(request: ManagedRequest): void;
  onRefused?(request: RefusedRequest): void;
  decodeUtf8?: (bytes: Uint8Array) => string;
}

/** The gateway's handler with a mode per session (`[gateway-host-modes]`). */
export interface ModeHandler extends GatewayHandler {
  readonly sessions: GatewaySessions;
  defaultMode: GatewayMode;
  modeOf(sessionId: string): GatewayMode;
  setMode(sessionId: string, mode: GatewayMode): void;
  /** The operator's pins and removals of a thread (by result key), as the manager gets them. */
  controls(threadId: string): { pins: Set<string>; removals: Set<string> };
  /** The thread's manager's generations, when it was managed. */
  generations(threadId: string): ReturnType<ThreadManager['generations']> | undefined;
}

interface ManagedThread {
  manager: ThreadManager;
  /** o200k tokens of the thread's last original the manager counted, and the thread's call count then (an observed call since makes them stale). */
  lastOriginalTokens?: number;
  lastOriginalAt?: number;
}

/** Threads whose managers are held at most (the least recently made dropped first). */
const MAX_MANAGED_THREADS = 512;
/**
 * Threads of one session whose managers hold their last request (what a manager's memory grows
 * with); the least recently used beyond this are released, keeping their generations. A client
 * that compacts leaves its old thread for a new one and never calls it again, so without this a
 * long session would hold every thread it ever compacted away.
 */
const LIVE_THREADS_PER_SESSION = 8;
const DEFAULT_CONTEXT_WINDOW = 200_000;

/** The provider's error for a request it would refuse as malformed (400 `invalid_request_error`). */
function invalidRequestReply(provider: GatewayProvider, message: string): { status: number; contentType: string; body: string } {
  const body = provider === 'anthropic' ? { type: 'error', error: { type: 'invalid_request_error', message } } : { error: { message, type: 'invalid_request_error', param: null, code: null } };
  return { status: 400, contentType: 'application/json', body: JSON.stringify(body) };
}

/** The manager's entry identities from the request's blocks (their hashes): one per message or input item, and the fixed part's. */
function entryKeys(api: GatewayApi, blocks: readonly RequestBlock[]): EntryKeys {
  const kind = api === 'openai-responses' ? 'input' : 'message';
  return {
    entries: blocks.filter((b) => b.kind === kind).map((b) => b.hash),
    fixed: blocks
      .filter((b) => b.kind === 'tools' || b.kind === 'system')
      .map((b) => `${b.key} ${b.hash}`)
      .join(' '),
  };
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * The handler the host gives the gateway's server. A session in observe mode gets g1's observe
 * handler untouched (nothing is read before the request went upstream). While some session is
 * managed, or new sessions start managed, a model call is parsed first to find its session: one
 * in observe mode is then handed to the observe handler as if nothing had happened; one in manage
 * mode is assigned its thread, rewritten by the thread's manager (`createThreadManager`) with the
 * operator's controls, and recorded like an observed call, its prefix reuse and cache break
 * measured over the bytes sent upstream. A request manage mode cannot read gets the provider's
 * 400 without going upstream (recorded); an engine fault forwards the original, recorded as
 * `fallback` on the call.
 */
export function createModeHandler(o: ModeHandlerOptions): ModeHandler {
  const sessions = new GatewaySessions({ ids: o.ids });
  const observe = createObserveHandler({ ids: o.ids, onCall: o.onCall, sessions, ...(o.onUnobserved ? { onUnobserved: o.onUnobserved } : {}), ...(o.decodeUtf8 ? { decodeUtf8: o.decodeUtf8 } : {}) });
  const decode = o.decodeUtf8 ?? ((bytes: Uint8Array) => new TextDecoder().decode(bytes));
  const encoder = new TextEncoder();
  const memo = new BlockHashMemo();
  const modes = new Map<string, GatewayMode>();
  const managed = new Map<string, ManagedThread>();
  const controls = new Map<string, { pins: Set<string>; removals: Set<string> }>();
  const managerOptions: ThreadManagerOptions = { contextWindow: DEFAULT_CONTEXT_WINDOW, ...o.manage, tokenizer: o.tokenizer };
  // Bad settings are refused here, not on the first managed request.
  resolveOptions(managerOptions);
  let managedSessions = 0;

  const live = new Map<string, Set<string>>();
  const threadOf = (sessionId: string, threadId: string): ManagedThread => {
    let t = managed.get(threadId);
    if (!t) {
      if (managed.size >= MAX_MANAGED_THREADS) managed.delete(managed.keys().next().value!);
      t = { manager: createThreadManager(managerOptions) };
      managed.set(threadId, t);
    }
    let ofSession = live.get(sessionId);
    if (!ofSession) {
      if (live.size >= MAX_MANAGED_THREADS) live.delete(live.keys().next().value!);
      live.set(sessionId, (ofSession = new Set()));
    }
    ofSession.delete(threadId);
    ofSession.add(threadId);
    for (const id of ofSession) {
      if (ofSession.size <= LIVE_THREADS_PER_SESSION) break;
      ofSession.delete(id);
      managed.get(id)?.manager.release();
    }
    return t;
  };
  const controlsOf = (threadId: string) => {
    let c = controls.get(threadId);
    if (!c) controls.set(threadId, (c = { pins: new Set(), removals: new Set() }));
    return c;
  };

  const refuse = (request: GatewayRequestIn, api: GatewayApi, reason: string, sink?: CallExchange): GatewayDecision => {
    o.onRefused?.({ at: request.receivedAt, path: request.path, api, bytes: request.body.length, reason });
    const reply = invalidRequestReply(providerOf(api), reason);
    return { kind: 'reply', ...reply, ...(sink ? { sink } : {}) };
  };

  function manage(request: GatewayRequestIn, api: GatewayApi, parsed: Exclude<ReturnType<typeof parseRequest>, { failure: string }>, text: string): GatewayDecision {
    const a = sessions.assign(parsed);
    if (!modes.has(a.session.id)) {
      modes.set(a.session.id, 'manage');
      managedSessions++;
    }
    const t = threadOf(a.session.id, a.thread.id);
    const sink = new CallExchange(api, request.receivedAt);
    let body: Extract<GatewayDecision, { kind: 'forward' }> = { kind: 'forward', body: 'original', sink };
    let sent = parsed.blocks;
    let rewritten: string | undefined;
    const call: GatewayCall = { id: o.ids.next('gwc'), sessionId: a.session.id, threadId: a.thread.id, api, model: parsed.model, mode: 'manage', startedAt: request.receivedAt, prefixReuse: 0, cacheBreak: a.cacheBreak };
    // What observe mode would have sent, for the savings estimate (`managedSaving`): the original against the thread's previous original.
    const previousTokens = t.lastOriginalAt === a.thread.calls - 1 ? t.lastOriginalTokens : undefined;
    call.original = { cacheBreak: a.originalBreak, bytes: bytesOf(parsed.blocks), ...(previousTokens !== undefined ? { previousTokens } : {}) };
    t.lastOriginalAt = a.thread.calls;
    try {
      const c = controlsOf(a.thread.id);
      const ctl: ManageControls = { pins: [...c.pins], removals: [...c.removals] };
      const keys = entryKeys(api, parsed.blocks);
      const result = api === 'anthropic-count-tokens' ? t.manager.rewriteCountTokens(parsed.body, keys) : t.manager.rewrite(api, parsed.body, ctl, keys);
      call.rewrite = result.record;
      if (result.body !== parsed.body) {
        rewritten = JSON.stringify(result.body);
        sent = blocksOf(api, result.body as Record<string, unknown>, memo);
        body = { kind: 'forward', body: encoder.encode(rewritten), sink };
      }
    } catch (error) {
      if (error instanceof ManageError && error.kind === 'request') {
        call.promptBytes = bytesOf(parsed.blocks);
        delete t.lastOriginalTokens;
        // Nothing went upstream: the thread's next call is measured against what did before.
        a.sent(a.previousSent?.blocks ?? null);
        const decision = refuse(request, api, error.message, sink);
        sink.attach(call, a.session, a.thread, o.onCall);
        return decision;
      }
      call.fallback = `the engine failed on this request, the original went upstream: ${messageOf(error)}`;
    }
    // Measured against what last went upstream for the thread, whichever mode sent it.
    const previous = a.previousSent;
    call.cacheBreak = sent === parsed.blocks ? a.cacheBreak : cacheBreak(previous?.blocks, sent, undefined, previous?.model !== undefined ? { previous: previous.model, current: parsed.model } : undefined);
    call.prefixReuse = blockPrefixReuse(call.cacheBreak, sent);
    call.promptBytes = bytesOf(sent);
    a.sent(sent);
    if (api !== 'anthropic-count-tokens') t.lastOriginalTokens = call.rewrite?.originalTokens;
    return {
      ...body,
      afterForward: () => {
        sink.attach(call, a.session, a.thread, o.onCall);
        o.onManaged?.({ call, original: text, ...(rewritten !== undefined ? { rewritten } : {}) });
      },
    };
  }

  const handler: ModeHandler = {
    sessions,
    defaultMode: o.defaultMode,
    handle(request) {
      const api = apiOfPath(request.method, request.path);
      if (api === undefined || (handler.defaultMode === 'observe' && managedSessions === 0)) return observe.handle(request);
      const text = decode(request.body);
      const parsed = parseRequest(api, request.headers, text, memo);
      if (isParseFailure(parsed)) {
        // Whose request it is cannot be told: a managing gateway refuses it as the provider would, an observing one passes it on.
        return handler.defaultMode === 'manage' ? refuse(request, api, parsed.failure) : observe.handle(request);
      }
      const sessionId = sessions.sessionIdOf(parsed);
      const mode = (sessionId !== undefined ? modes.get(sessionId) : undefined) ?? handler.defaultMode;
      return mode === 'observe' ? observe.handle(request) : manage(request, api, parsed, text);
    },
    failed(request, error) {
      observe.failed(request, error);
    },
    modeOf: (sessionId) => modes.get(sessionId) ?? handler.defaultMode,
    setMode(sessionId, mode) {
      const before = modes.get(sessionId);
      modes.set(sessionId, mode);
      if (before !== 'manage' && mode === 'manage') managedSessions++;
      if (before === 'manage' && mode === 'observe') managedSessions--;
    },
    controls: controlsOf,
    generations: (threadId) => managed.get(threadId)?.manager.generations(),
  };

  return handler;
}
