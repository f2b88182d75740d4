import { createHash } from 'node:crypto';
import type { GatewayCallUpdate } from '../../../engine/gateway/CallExchange';
import type { UnobservedRequest } from '../../../engine/gateway/observeHandler';
import type { GatewayCall, GatewayMode } from '../../../engine/gateway/types';
import type { GatewayTotals } from '../../../engine/host/GatewayBook';
import type { ManageSettings, RefusedRequest } from '../../../engine/host/gatewayHandler';
import { startGateway } from '../../../engine/host/startGateway';
import type { ProxyUnderTest, ProxyUpstreams } from './proxies';

/**
 * The Strata gateway as the proxy under test of a real-client run (SPEC `[real-client-gateway]`):
 * started inside the run's network namespace with the scripted server as both providers'
 * upstream, it records what it saw (every call it announced, with its session and thread) so the
 * runner can hand the gateway's own view back to the test beside the server's log.
 */

interface RecordedThread {
  id: string;
  sessionId: string;
  label: string;
  parentId?: string;
  clientThreadId?: string;
}

interface RecordedSession {
  id: string;
  client?: string;
  clientSessionId?: string;
  model: string;
}

/** What the gateway recorded over a run, as plain JSON. */
export interface GatewayRunRecords {
  mode: GatewayMode;
  /** Every call the gateway announced, in the order it announced them, as it stood when the run ended. */
  calls: GatewayCall[];
  /** Calls announced `started` that never `ended` (their ids): an exchange the gateway lost track of. */
  unended: string[];
  sessions: RecordedSession[];
  threads: RecordedThread[];
  /** Requests that went upstream unchanged but were not observed, and why. */
  unobserved: UnobservedRequest[];
  /** Requests manage mode answered itself (the provider's 400) without going upstream. */
  refused: RefusedRequest[];
  /** Per session, the totals the control room shows (billed parts, money, prefix reuse, savings). */
  totals: ({ sessionId: string } & GatewayTotals)[];
  /** The managed calls whose original (and rewritten) request the gateway still keeps, as SHA-256 of their JSON text. */
  kept: { callId: string; originalSha256: string; rewrittenSha256?: string }[];
  /** Per managed thread, its generations in all and the reasons of the newest. */
  generations: { threadId: string; total: number; reasons: string[] }[];
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Collects a gateway's call updates into `GatewayRunRecords`. */
class GatewayRecorder {
  private readonly calls: GatewayCall[] = [];
  private readonly ended = new Set<string>();
  private readonly sessions = new Map<string, RecordedSession>();
  private readonly threads = new Map<string, RecordedThread>();
  readonly unobserved: UnobservedRequest[] = [];
  readonly refused: RefusedRequest[] = [];

  constructor(private readonly mode: GatewayMode) {}

  readonly onCall = (u: GatewayCallUpdate): void => {
    if (u.event === 'started') this.calls.push(u.call);
    if (u.event === 'ended') this.ended.add(u.call.id);
    const s = u.session;
    this.sessions.set(s.id, { id: s.id, model: s.model, ...(s.client !== undefined ? { client: s.client } : {}), ...(s.clientSessionId !== undefined ? { clientSessionId: s.clientSessionId } : {}) });
    const t = u.thread;
    this.threads.set(t.id, { id: t.id, sessionId: t.sessionId, label: t.label, ...(t.parentId !== undefined ? { parentId: t.parentId } : {}), ...(t.clientThreadId !== undefined ? { clientThreadId: t.clientThreadId } : {}) });
  };

  records(): GatewayRunRecords {
    return {
      mode: this.mode,
      calls: structuredClone(this.calls),
      unended: this.calls.filter((c) => !this.ended.has(c.id)).map((c) => c.id),
      sessions: [...this.sessions.values()],
      threads: [...this.threads.values()],
      unobserved: [...this.unobserved],
      refused: [...this.refused],
      totals: [],
      kept: [],
      generations: [],
    };
  }
}

/**
 * The gateway (`startGateway`) in `mode` with the scripted server as both upstreams (OpenAI's base
 * URL is its `/v1`, as Codex's `base_url` is), recording its calls, the requests it refused or could
 * not observe, the sessions' totals as the control room shows them, and the originals it kept.
 */
export async function startGatewayUnderTest(upstreams: ProxyUpstreams, mode: GatewayMode, manageOptions?: ManageSettings): Promise<ProxyUnderTest> {
  const recorder = new GatewayRecorder(mode);
  const gateway = await startGateway({
    mode,
    upstreams: { anthropic: upstreams.anthropic, openai: `${upstreams.openai}/v1` },
    ...(manageOptions ? { manageOptions } : {}),
    onCall: recorder.onCall,
    onUnobserved: (r) => recorder.unobserved.push(r),
    onRefused: (r) => recorder.refused.push(r),
  });
  return {
    origin: gateway.origin,
    close: () => gateway.close(),
    records: () => {
      const r = recorder.records();
      r.totals = gateway.sessions().map((s) => ({ sessionId: s.session.id, ...s.totals }));
      r.kept = r.calls.flatMap((c) => {
        const k = gateway.request(c.id);
        return k ? [{ callId: c.id, originalSha256: sha256(k.original), ...(k.rewritten !== undefined ? { rewrittenSha256: sha256(k.rewritten) } : {}) }] : [];
      });
      r.generations = [...new Set(r.calls.map((c) => c.threadId))].flatMap((threadId) => {
        const g = gateway.handler.generations(threadId);
        return g ? [{ threadId, total: g.total, reasons: g.generations.map((x) => x.reason) }] : [];
      });
      return r;
    },
  };
}
