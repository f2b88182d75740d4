import type { GatewayCallUpdate } from '../gateway/CallExchange';
import type { GatewaySession, GatewayThread } from '../gateway/GatewaySessions';
import { managedSaving } from '../gateway/managedSaving';
import type { GatewayCall, GatewayUsage } from '../gateway/types';
import { reuseRatio } from '../metrics/prefixReuse';
import type { ManagedRequest } from './gatewayHandler';

/**
 * What the gateway saw, as the control room shows it (`[gateway-host-book]`): sessions → threads
 * → calls, bounded. Per thread the newest {@link CALLS_PER_THREAD} calls are kept and totals add
 * up every call that ended (calls, billed tokens by part, money, prefix reuse, savings); of managed
 * calls the original and the rewritten request of the newest {@link REQUESTS_PER_THREAD} per
 * thread and {@link REQUESTS_PER_SESSION} per session (a long session compacts into new threads,
 * and the ones it left get no more calls), at most {@link REQUESTS_MAX} and
 * {@link REQUEST_BYTES_MAX} bytes over all, the oldest dropped first. Sessions and threads beyond their caps drop the least recently updated.
 */

const CALLS_PER_THREAD = 100;
export const REQUESTS_PER_THREAD = 20;
export const REQUESTS_PER_SESSION = 40;
const REQUESTS_MAX = 200;
const REQUEST_BYTES_MAX = 64 * 1024 * 1024;
const SESSIONS_MAX = 256;
const THREADS_MAX = 64;

export interface GatewayTotals {
  calls: number;
  /** Calls that ended with an error or fault. */
  errors: number;
  /** Calls manage mode rewrote (or tried to). */
  managed: number;
  usage: GatewayUsage;
  costUsd: number;
  /** Unchanged leading bytes and bytes of every call but each thread's first (and count_tokens calls), for `prefixReuse`. */
  reusedBytes: number;
  promptBytes: number;
  prefixReuse: number;
  /** Estimated (`[gateway-host-savings]`): billed prompt tokens manage mode kept from being billed, and the money it saved against observe mode (negative at a boundary that cost more than it saved). */
  savedTokens: number;
  savedUsd: number;
}

export interface ThreadEntry {
  thread: GatewayThread;
  calls: GatewayCall[];
  totals: GatewayTotals;
  updatedAt: number;
}

export interface SessionEntry {
  session: GatewaySession;
  threads: Map<string, ThreadEntry>;
  totals: GatewayTotals;
  updatedAt: number;
}

interface KeptRequest {
  callId: string;
  sessionId: string;
  threadId: string;
  original: string;
  rewritten?: string;
  bytes: number;
}

function emptyTotals(): GatewayTotals {
  return { calls: 0, errors: 0, managed: 0, usage: { input: 0, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: 0 }, costUsd: 0, reusedBytes: 0, promptBytes: 0, prefixReuse: 0, savedTokens: 0, savedUsd: 0 };
}

/**
 * What manage mode saved on one ended call (`[gateway-host-savings]`), estimated by `managedSaving`:
 * the original request's counterfactual bill in observe mode less what was billed. Nothing for a
 * call that was not rewritten, ended without usage, or is a count_tokens call (it bills nothing).
 */
export function savingsOf(call: GatewayCall): { tokens: number; usd: number } {
  if (!call.rewrite || !call.usage || !call.original || call.api === 'anthropic-count-tokens') return { tokens: 0, usd: 0 };
  const { tokens, usd } = managedSaving({ model: call.model, usage: call.usage, originalTokens: call.rewrite.originalTokens, rewrittenTokens: call.rewrite.rewrittenTokens, sentCacheBreak: call.cacheBreak.at, original: call.original });
  return { tokens, usd };
}

function addCall(t: GatewayTotals, call: GatewayCall): void {
  t.calls++;
  if (call.error !== undefined) t.errors++;
  if (call.mode === 'manage') t.managed++;
  const u = call.usage;
  if (u) {
    t.usage.input += u.input;
    t.usage.cacheRead += u.cacheRead;
    t.usage.cacheWrite += u.cacheWrite;
    t.usage.cacheWrite1h += u.cacheWrite1h;
    t.usage.output += u.output;
  }
  t.costUsd += call.costUsd ?? 0;
  if (call.api !== 'anthropic-count-tokens' && call.cacheBreak.at !== 'first call' && call.promptBytes !== undefined) {
    t.reusedBytes += call.cacheBreak.unchangedBytes;
    t.promptBytes += call.promptBytes;
    t.prefixReuse = reuseRatio(t.reusedBytes, t.promptBytes);
  }
  const saved = savingsOf(call);
  t.savedTokens += saved.tokens;
  t.savedUsd += saved.usd;
}

export class GatewayBook {
  readonly #sessions = new Map<string, SessionEntry>();
  readonly #requests = new Map<string, KeptRequest>();
  #requestBytes = 0;
  readonly #ended = new Set<string>();

  constructor(private readonly now: () => number) {}

  /** Takes one of the observe/manage handler's call updates; returns the session entry it changed. */
  record(u: GatewayCallUpdate): SessionEntry {
    const s = this.sessionEntry(u.session);
    const t = this.threadEntry(s, u.thread);
    const at = this.now();
    s.updatedAt = t.updatedAt = at;
    if (u.event === 'started') {
      t.calls.push(u.call);
      if (t.calls.length > CALLS_PER_THREAD) t.calls.splice(0, t.calls.length - CALLS_PER_THREAD);
    }
    if (u.event === 'ended' && !this.#ended.has(u.call.id)) {
      this.#ended.add(u.call.id);
      if (this.#ended.size > 10_000) this.#ended.delete(this.#ended.values().next().value!);
      addCall(t.totals, u.call);
      addCall(s.totals, u.call);
    }
    return s;
  }

  /** Keeps a managed call's original and rewritten request, within the bounds. */
  keepRequest(r: ManagedRequest): void {
    const bytes = r.original.length + (r.rewritten?.length ?? 0);
    if (bytes > REQUEST_BYTES_MAX) return;
    const kept: KeptRequest = { callId: r.call.id, sessionId: r.call.sessionId, threadId: r.call.threadId, original: r.original, bytes };
    if (r.rewritten !== undefined) kept.rewritten = r.rewritten;
    this.#requests.set(kept.callId, kept);
    this.#requestBytes += bytes;
    const ofSession = [...this.#requests.values()].filter((k) => k.sessionId === kept.sessionId);
    const ofThread = ofSession.filter((k) => k.threadId === kept.threadId);
    const stale = new Set(ofThread.slice(0, Math.max(0, ofThread.length - REQUESTS_PER_THREAD)));
    const left = ofSession.filter((k) => !stale.has(k));
    for (const k of left.slice(0, Math.max(0, left.length - REQUESTS_PER_SESSION))) stale.add(k);
    for (const k of stale) this.dropRequest(k.callId);
    for (const k of this.#requests.values()) {
      if (this.#requests.size <= REQUESTS_MAX && this.#requestBytes <= REQUEST_BYTES_MAX) break;
      this.dropRequest(k.callId);
    }
  }

  request(callId: string): { original: string; rewritten?: string } | undefined {
    const k = this.#requests.get(callId);
    return k && (k.rewritten !== undefined ? { original: k.original, rewritten: k.rewritten } : { original: k.original });
  }

  hasRequest(callId: string): boolean {
    return this.#requests.has(callId);
  }

  /** Kept requests and their bytes (the memory bound). */
  keptRequests(): { count: number; bytes: number } {
    return { count: this.#requests.size, bytes: this.#requestBytes };
  }

  sessions(): SessionEntry[] {
    return [...this.#sessions.values()];
  }

  session(id: string): SessionEntry | undefined {
    return this.#sessions.get(id);
  }

  /** The thread a call id belongs to, among the calls kept. */
  findCall(callId: string): GatewayCall | undefined {
    for (const s of this.#sessions.values()) for (const t of s.threads.values()) for (const c of t.calls) if (c.id === callId) return c;
    return undefined;
  }

  clear(): void {
    this.#sessions.clear();
    this.#requests.clear();
    this.#requestBytes = 0;
    this.#ended.clear();
  }

  private dropRequest(callId: string): void {
    const k = this.#requests.get(callId);
    if (!k) return;
    this.#requests.delete(callId);
    this.#requestBytes -= k.bytes;
  }

  private sessionEntry(session: GatewaySession): SessionEntry {
    let s = this.#sessions.get(session.id);
    if (!s) {
      if (this.#sessions.size >= SESSIONS_MAX) {
        const oldest = [...this.#sessions.values()].reduce((a, b) => (b.updatedAt < a.updatedAt ? b : a));
        this.#sessions.delete(oldest.session.id);
      }
      s = { session, threads: new Map(), totals: emptyTotals(), updatedAt: this.now() };
      this.#sessions.set(session.id, s);
    }
    s.session = session;
    return s;
  }

  private threadEntry(s: SessionEntry, thread: GatewayThread): ThreadEntry {
    let t = s.threads.get(thread.id);
    if (!t) {
      if (s.threads.size >= THREADS_MAX) {
        const oldest = [...s.threads.values()].filter((x) => x.thread.id !== s.session.mainThreadId).reduce((a, b) => (b.updatedAt < a.updatedAt ? b : a));
        s.threads.delete(oldest.thread.id);
      }
      t = { thread, calls: [], totals: emptyTotals(), updatedAt: this.now() };
      s.threads.set(thread.id, t);
    }
    t.thread = thread;
    return t;
  }
}
