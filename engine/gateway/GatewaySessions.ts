import type { IdSource } from '../ports/IdSource';
import { blockPrefixReuse, cacheBreak, commonBlocks } from './cacheBreak';
import { continuesFromSummary, isCompactionCall } from './clientCompaction';
import type { CacheBreak, ParsedRequest, RequestBlock } from './types';

/**
 * Sessions and threads of the calls through the gateway (`[gateway-sessions]`, `[gateway-threads]`).
 *
 * A session is the client's own when the request names one (`clientSessionId`: Claude Code's
 * session id, Codex's session id or `prompt_cache_key`), keyed with the client's name; a request
 * that names none joins the one session of its client (`user-agent` product) and model.
 *
 * A thread is one conversation the provider caches as a growing prefix. A request goes to:
 * 1. the thread the client names (`clientThread`: a Claude Code subagent's agent id, a Codex
 *    thread id), created as a child of the thread it names as parent, else of the main thread;
 * 2. else, when it is the client's compaction call, a new `compaction` thread, child of the thread
 *    it extends (its cache break is measured against that thread, which it does not move on);
 * 3. else the thread it extends: its blocks start with that thread's previous request but its
 *    last block (the tail may grow: Claude Code appends to the last user message), a shared part
 *    holding at least one message, or failing that, it shares that thread's system and first
 *    message (history edited in the middle);
 * 4. else, when it continues from a client's summary, the thread the last compaction came from;
 * 5. else the session's first thread is its `main` one and any later one a `side` child of main.
 *
 * Memory is bounded: per thread only the last request's block list (keys, hashes, sizes; never
 * bodies), at most `maxThreads` threads per session and `maxSessions` sessions, the least recently
 * used dropped first (the main thread last).
 */

export type ThreadLabel = 'main' | 'subagent' | 'compaction' | 'side' | (string & {});

export interface GatewayThread {
  id: string;
  sessionId: string;
  parentId?: string;
  label: ThreadLabel;
  /** The client's own id for it, when it names one. */
  clientThreadId?: string;
  calls: number;
}

export interface GatewaySession {
  id: string;
  client?: string;
  clientSessionId?: string;
  /** The model of its first call. */
  model: string;
  mainThreadId?: string;
  calls: number;
}

/** Where a request went and how it compares with its thread's previous request. */
export interface Assignment {
  session: GatewaySession;
  thread: GatewayThread;
  /** Against what last went upstream for the thread: the request sent as it came (observe mode). */
  cacheBreak: CacheBreak;
  prefixReuse: number;
  /** Against the thread's previous request as its client sent it: what observe mode would have met had nothing been rewritten. */
  originalBreak: CacheBreak;
  /** What last went upstream for the thread, and its model (undefined for its first call). */
  previousSent?: { blocks: readonly RequestBlock[]; model?: string };
  /** Records that `blocks` went upstream instead of the request's own (manage mode's rewrite), or nothing (`null`: refused): the thread's next call is measured against them. */
  sent(blocks: readonly RequestBlock[] | null): void;
}

interface ThreadState {
  thread: GatewayThread;
  lastBlocks?: readonly RequestBlock[];
  lastModel?: string;
  /** What went upstream for the last call when it was not `lastBlocks` (a managed rewrite); `null` while nothing has. */
  sentBlocks?: readonly RequestBlock[] | null;
  /** Hash of the system block and the first message: what a thread keeps when its middle is edited. */
  anchor?: string;
  lastUsed: number;
}

interface SessionState {
  session: GatewaySession;
  key: string;
  threads: Map<string, ThreadState>;
  byClientThread: Map<string, string>;
  /** The thread the last compaction call summarised. */
  compactedFrom?: string;
  lastUsed: number;
}

export interface GatewaySessionsOptions {
  ids: IdSource;
  maxSessions?: number;
  maxThreads?: number;
}

const CLIENT_KINDS: Record<string, ThreadLabel> = { subagent: 'subagent', collab_spawn: 'subagent', compact: 'compaction' };

function anchorOf(blocks: readonly RequestBlock[]): string | undefined {
  const system = blocks.find((b) => b.kind === 'system');
  const first = blocks.find((b) => b.kind === 'message' || b.kind === 'input');
  return first ? `${system?.hash ?? ''}:${first.hash}` : undefined;
}

/**
 * The request extends the thread: it starts with the thread's previous blocks but the last, and
 * that shared part holds a message (sharing only tools and system says nothing of the conversation).
 */
function extendsThread(state: ThreadState, blocks: readonly RequestBlock[]): number {
  const last = state.lastBlocks;
  if (!last || last.length < 2) return 0;
  const needed = last.length - 1;
  const sharesMessage = last.slice(0, needed).some((b) => b.kind === 'message' || b.kind === 'input');
  return sharesMessage && commonBlocks(last, blocks) >= needed ? needed : 0;
}

export class GatewaySessions {
  private readonly sessions = new Map<string, SessionState>();
  private readonly maxSessions: number;
  private readonly maxThreads: number;
  private tick = 0;

  constructor(private readonly options: GatewaySessionsOptions) {
    this.maxSessions = options.maxSessions ?? 256;
    this.maxThreads = options.maxThreads ?? 64;
  }

  /** Assigns `request` to a session and a thread and moves the thread on (count_tokens requests only read). */
  assign(request: ParsedRequest): Assignment {
    const s = this.sessionFor(request);
    const { state, compareWith } = this.threadFor(s, request);
    const models = compareWith.lastModel !== undefined ? { previous: compareWith.lastModel, current: request.model } : undefined;
    const originalBreak = cacheBreak(compareWith.lastBlocks, request.blocks, undefined, models);
    const previousBlocks = compareWith.sentBlocks === null ? undefined : (compareWith.sentBlocks ?? compareWith.lastBlocks);
    const brk = compareWith.sentBlocks !== undefined ? cacheBreak(previousBlocks, request.blocks, undefined, models) : originalBreak;
    const previousSent = previousBlocks ? { blocks: previousBlocks, ...(compareWith.lastModel !== undefined ? { model: compareWith.lastModel } : {}) } : undefined;
    const moves = request.api !== 'anthropic-count-tokens';
    if (moves) {
      state.lastBlocks = request.blocks;
      state.lastModel = request.model;
      delete state.sentBlocks;
      const anchor = anchorOf(request.blocks);
      if (anchor !== undefined) state.anchor = anchor;
      else delete state.anchor;
    }
    state.thread.calls++;
    s.session.calls++;
    state.lastUsed = s.lastUsed = ++this.tick;
    return {
      session: s.session,
      thread: state.thread,
      cacheBreak: brk,
      prefixReuse: blockPrefixReuse(brk, request.blocks),
      originalBreak,
      ...(previousSent ? { previousSent } : {}),
      sent: (blocks) => {
        if (moves && blocks !== request.blocks) state.sentBlocks = blocks;
      },
    };
  }

  /** The id of the session `request` would join, when it is held already; changes nothing. */
  sessionIdOf(request: ParsedRequest): string | undefined {
    return this.sessions.get(this.keyOf(request))?.session.id;
  }

  /** Sessions held, with their threads (for a host's first snapshot and for the memory bound). */
  list(): { session: GatewaySession; threads: GatewayThread[] }[] {
    return [...this.sessions.values()].map((s) => ({ session: s.session, threads: [...s.threads.values()].map((t) => t.thread) }));
  }

  /** Blocks held across every thread: the whole of what grows with traffic. */
  heldBlocks(): number {
    let n = 0;
    for (const s of this.sessions.values()) for (const t of s.threads.values()) n += (t.lastBlocks?.length ?? 0) + (t.sentBlocks?.length ?? 0);
    return n;
  }

  private keyOf(request: ParsedRequest): string {
    const client = request.client ?? 'unknown client';
    return request.clientSessionId !== undefined ? `${client}\u0000id\u0000${request.clientSessionId}` : `${client}\u0000model\u0000${request.model}`;
  }

  private sessionFor(request: ParsedRequest): SessionState {
    const key = this.keyOf(request);
    const found = this.sessions.get(key);
    if (found) return found;
    if (this.sessions.size >= this.maxSessions) this.evictSession();
    const session: GatewaySession = { id: this.options.ids.next('gws'), model: request.model, calls: 0 };
    if (request.client !== undefined) session.client = request.client;
    if (request.clientSessionId !== undefined) session.clientSessionId = request.clientSessionId;
    const state: SessionState = { session, key, threads: new Map(), byClientThread: new Map(), lastUsed: this.tick };
    this.sessions.set(key, state);
    return state;
  }

  private threadFor(s: SessionState, request: ParsedRequest): { state: ThreadState; compareWith: ThreadState } {
    const named = request.clientThread;
    if (named) {
      const id = s.byClientThread.get(named.id);
      const existing = id !== undefined ? s.threads.get(id) : undefined;
      if (existing && request.api !== 'anthropic-count-tokens' && isCompactionCall(request)) return this.compaction(s, existing);
      if (existing) return { state: existing, compareWith: existing };
      const parentId = named.parent !== undefined ? s.byClientThread.get(named.parent) : undefined;
      const main = s.session.mainThreadId;
      const label = named.kind !== undefined ? (CLIENT_KINDS[named.kind] ?? named.kind) : main === undefined && parentId === undefined ? 'main' : 'side';
      const state = this.newThread(s, label, parentId ?? main, named.id);
      return { state, compareWith: state };
    }
    const extended = this.bestMatch(s, request.blocks);
    const main = s.session.mainThreadId !== undefined ? s.threads.get(s.session.mainThreadId) : undefined;
    if (request.api === 'anthropic-count-tokens') {
      // A token count reads a thread and never moves it on, so it opens no thread of its own once one exists.
      const read = extended ?? main ?? this.newThread(s, 'main', undefined);
      return { state: read, compareWith: read };
    }
    if (isCompactionCall(request)) return this.compaction(s, extended ?? main);
    if (extended) return { state: extended, compareWith: extended };
    if (continuesFromSummary(request)) {
      const back = s.threads.get(s.compactedFrom ?? s.session.mainThreadId ?? '');
      if (back) return { state: back, compareWith: back };
    }
    const state = this.newThread(s, main === undefined ? 'main' : 'side', main?.thread.id);
    return { state, compareWith: state };
  }

  /** A compaction call: a thread of its own under the thread it summarises, compared with that thread. */
  private compaction(s: SessionState, from: ThreadState | undefined): { state: ThreadState; compareWith: ThreadState } {
    const state = this.newThread(s, 'compaction', from?.thread.id ?? s.session.mainThreadId);
    if (from) s.compactedFrom = from.thread.id;
    return { state, compareWith: from ?? state };
  }

  /** The thread `blocks` extend (longest match), else one sharing its system and first message (most recent). */
  private bestMatch(s: SessionState, blocks: readonly RequestBlock[]): ThreadState | undefined {
    let best: ThreadState | undefined;
    let bestLength = 0;
    const anchor = anchorOf(blocks);
    let anchored: ThreadState | undefined;
    for (const t of s.threads.values()) {
      if (t.thread.clientThreadId !== undefined || t.thread.label === 'compaction') continue;
      const length = extendsThread(t, blocks);
      if (length > bestLength) {
        best = t;
        bestLength = length;
      }
      if (anchor !== undefined && t.anchor === anchor && (!anchored || t.lastUsed > anchored.lastUsed)) anchored = t;
    }
    return best ?? anchored;
  }

  private newThread(s: SessionState, label: ThreadLabel, parentId: string | undefined, clientThreadId?: string): ThreadState {
    if (s.threads.size >= this.maxThreads) this.evictThread(s);
    const thread: GatewayThread = { id: this.options.ids.next('gwt'), sessionId: s.session.id, label, calls: 0 };
    if (parentId !== undefined && label !== 'main') thread.parentId = parentId;
    if (clientThreadId !== undefined) {
      thread.clientThreadId = clientThreadId;
      s.byClientThread.set(clientThreadId, thread.id);
    }
    if (label === 'main' && s.session.mainThreadId === undefined) s.session.mainThreadId = thread.id;
    const state: ThreadState = { thread, lastUsed: this.tick };
    s.threads.set(thread.id, state);
    return state;
  }

  private evictThread(s: SessionState): void {
    let oldest: ThreadState | undefined;
    for (const t of s.threads.values()) if (t.thread.id !== s.session.mainThreadId && (!oldest || t.lastUsed < oldest.lastUsed)) oldest = t;
    if (!oldest) return;
    s.threads.delete(oldest.thread.id);
    if (oldest.thread.clientThreadId !== undefined) s.byClientThread.delete(oldest.thread.clientThreadId);
    if (s.compactedFrom === oldest.thread.id) delete s.compactedFrom;
  }

  private evictSession(): void {
    let oldest: SessionState | undefined;
    for (const s of this.sessions.values()) if (!oldest || s.lastUsed < oldest.lastUsed) oldest = s;
    if (oldest) this.sessions.delete(oldest.key);
  }
}
