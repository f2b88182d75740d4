import { type GatewayCallDto, type GatewaySessionDetailDto, type GatewaySessionDto, type GatewayStatusDto, type GatewayTotalsDto, StrataError, type StrataEvent } from '../contract';
import { clientLines } from '../gateway/clientLines';
import type { GatewayCall, GatewayMode, GatewayProvider } from '../gateway/types';
import { DEFAULT_UPSTREAMS } from '../node/gateway/gatewayRoutes';
import type { Scheduler } from '../ports/Scheduler';
import type { Tokenizer } from '../tokens/Tokenizer';
import type { GatewayTotals, SessionEntry, ThreadEntry } from './GatewayBook';
import type { ManageSettings } from './gatewayHandler';
import { type RunningGateway, startGateway } from './startGateway';

/** How often `gateway.call` and `gateway.session` go out at most (4 a second each, `[gateway-host-events]`). */
const GATEWAY_EVENT_MS = 250;

/** The workspace's gateway settings (`HostOptions.gateway`; the CLI's flags). */
export interface GatewaySettings {
  port?: number;
  upstreams?: Partial<Record<GatewayProvider, string>>;
  /** The mode of new sessions (default observe). */
  mode?: GatewayMode;
  manageOptions?: ManageSettings;
}

export interface GatewayServiceOptions {
  settings: GatewaySettings;
  emit(event: StrataEvent): void;
  scheduler: Scheduler;
  log(level: 'info' | 'warn' | 'error', message: string): void;
  tokenizer?: Tokenizer;
}

const totalsDto = (t: GatewayTotals): GatewayTotalsDto => ({ calls: t.calls, errors: t.errors, managed: t.managed, usage: { ...t.usage }, costUsd: t.costUsd, prefixReuse: t.prefixReuse, savedTokens: t.savedTokens, savedUsd: t.savedUsd });

/**
 * The host's gateway (`[gateway-host-service]`): starts and stops `startGateway` with the
 * workspace's settings, keeps what it saw in its book, lets a view switch a session between
 * observe and manage live and pin, unpin, remove or restore a thread's items for its manager, and
 * announces status at once, calls and sessions batched at most every {@link GATEWAY_EVENT_MS}.
 */
export class GatewayService {
  #gateway: RunningGateway | undefined;
  #starting: Promise<GatewayStatusDto> | undefined;
  #problem: string | null = null;
  #mode: GatewayMode;
  readonly #pendingCalls = new Map<string, GatewayCall>();
  readonly #pendingSessions = new Set<string>();
  #stopTimer: (() => void) | undefined;
  #closed = false;

  constructor(private readonly o: GatewayServiceOptions) {
    this.#mode = o.settings.mode ?? 'observe';
  }

  status(): GatewayStatusDto {
    const g = this.#gateway;
    const up = this.o.settings.upstreams ?? {};
    return {
      running: g !== undefined,
      origin: g?.origin ?? null,
      port: g?.port ?? null,
      upstreams: { anthropic: up.anthropic ?? DEFAULT_UPSTREAMS.anthropic, openai: up.openai ?? DEFAULT_UPSTREAMS.openai },
      mode: g?.handler.defaultMode ?? this.#mode,
      clients: g ? clientLines(g.origin) : [],
      problem: this.#problem,
    };
  }

  /** Starts the gateway (`port` over the settings' one); `conflict` when it runs, `unavailable` when it cannot listen. */
  async start(args: { port?: number | undefined; mode?: GatewayMode | undefined } = {}): Promise<GatewayStatusDto> {
    if (this.#closed) throw new StrataError('unavailable', 'The Strata host is shut down.');
    if (this.#gateway || this.#starting) throw new StrataError('conflict', `The gateway is already ${this.#gateway ? `running at ${this.#gateway.origin}` : 'starting'}; stop it first.`);
    const port = args.port ?? this.o.settings.port;
    const mode = args.mode ?? this.#mode;
    this.#starting = (async () => {
      try {
        this.#gateway = await startGateway({
          mode,
          ...(port !== undefined ? { port } : {}),
          ...(this.o.settings.upstreams ? { upstreams: this.o.settings.upstreams } : {}),
          ...(this.o.settings.manageOptions ? { manageOptions: this.o.settings.manageOptions } : {}),
          ...(this.o.tokenizer ? { tokenizer: this.o.tokenizer } : {}),
          onCall: (u) => this.changed(u.call),
          onUnobserved: (r) => this.o.log('warn', `Gateway: ${r.method} ${r.path} (${r.bytes} bytes) went upstream unchanged but was not observed: ${r.reason}`),
          onRefused: (r) => this.o.log('warn', `Gateway: ${r.path} (${r.bytes} bytes) refused in manage mode: ${r.reason}`),
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.#problem = `The gateway could not start: ${message}`;
        this.emitStatus();
        throw new StrataError(/EADDRINUSE/.test(message) ? 'conflict' : 'invalid_args', this.#problem);
      }
      this.#mode = mode;
      this.#problem = null;
      this.o.log('info', `Gateway listening at ${this.#gateway.origin} (${mode} mode)`);
      this.emitStatus();
      return this.status();
    })();
    try {
      return await this.#starting;
    } finally {
      this.#starting = undefined;
    }
  }

  /** Stops the gateway; what it saw stays until it starts again. Stopping a stopped gateway answers its status. */
  async stop(): Promise<GatewayStatusDto> {
    const g = this.#gateway;
    if (!g) return this.status();
    this.#gateway = undefined;
    this.flush();
    this.#last = g;
    await g.close();
    this.o.log('info', `Gateway at ${g.origin} stopped`);
    this.emitStatus();
    return this.status();
  }

  /** The gateway that ran last, so its sessions stay readable after a stop. */
  #last: RunningGateway | undefined;

  private get current(): RunningGateway | undefined {
    return this.#gateway ?? this.#last;
  }

  listSessions(): GatewaySessionDto[] {
    const g = this.current;
    if (!g) return [];
    return g.sessions().map((s) => this.sessionDto(g, s)).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  session(sessionId: string): GatewaySessionDetailDto {
    const g = this.current;
    const s = g?.book.session(sessionId);
    if (!g || !s) throw new StrataError('not_found', `No gateway session ${JSON.stringify(sessionId)}.`);
    const threads = [...s.threads.values()].map((t) => this.threadDto(g, t));
    return { session: this.sessionDto(g, s), threads };
  }

  /** Switches a session between observe and manage from its next call on. */
  setMode(sessionId: string, mode: GatewayMode): GatewaySessionDto {
    const g = this.current;
    const s = g?.book.session(sessionId);
    if (!g || !s) throw new StrataError('not_found', `No gateway session ${JSON.stringify(sessionId)}.`);
    g.handler.setMode(sessionId, mode);
    this.o.log('info', `Gateway session ${sessionId} now in ${mode} mode from its next call`);
    this.#pendingSessions.add(sessionId);
    this.schedule();
    return this.sessionDto(g, s);
  }

  /** Pins, unpins, removes or restores a result (by key) of a thread for its manager, from the thread's next call. */
  control(args: { sessionId: string; threadId: string; itemKey: string; action: 'pin' | 'unpin' | 'remove' | 'restore' }): { pins: string[]; removals: string[] } {
    const g = this.current;
    const s = g?.book.session(args.sessionId);
    if (!g || !s || !s.threads.has(args.threadId)) throw new StrataError('not_found', `No thread ${JSON.stringify(args.threadId)} in gateway session ${JSON.stringify(args.sessionId)}.`);
    const c = g.handler.controls(args.threadId);
    if (args.action === 'pin') {
      if (c.removals.has(args.itemKey)) throw new StrataError('conflict', `${args.itemKey} is removed; restore it before pinning it.`);
      c.pins.add(args.itemKey);
    } else if (args.action === 'remove') {
      if (c.pins.has(args.itemKey)) throw new StrataError('conflict', `${args.itemKey} is pinned; unpin it before removing it.`);
      c.removals.add(args.itemKey);
    } else if (args.action === 'unpin') c.pins.delete(args.itemKey);
    else c.removals.delete(args.itemKey);
    this.#pendingSessions.add(args.sessionId);
    this.schedule();
    return { pins: [...c.pins].sort(), removals: [...c.removals].sort() };
  }

  request(callId: string): { callId: string; original: string; rewritten: string | null } {
    const r = this.current?.request(callId);
    if (!r) throw new StrataError('not_found', `No request kept for gateway call ${JSON.stringify(callId)} (only managed calls' newest requests are kept).`);
    return { callId, original: r.original, rewritten: r.rewritten ?? null };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopTimer?.();
    this.#stopTimer = undefined;
    const g = this.#gateway;
    this.#gateway = undefined;
    await g?.close();
  }

  private sessionDto(g: RunningGateway, s: SessionEntry): GatewaySessionDto {
    return { id: s.session.id, client: s.session.client ?? null, clientSessionId: s.session.clientSessionId ?? null, model: s.session.model, mode: g.handler.modeOf(s.session.id), threads: s.threads.size, totals: totalsDto(s.totals), updatedAt: s.updatedAt };
  }

  private threadDto(g: RunningGateway, t: ThreadEntry): GatewaySessionDetailDto['threads'][number] {
    const gens = g.handler.generations(t.thread.id);
    const c = g.handler.controls(t.thread.id);
    return {
      id: t.thread.id,
      parentId: t.thread.parentId ?? null,
      label: t.thread.label,
      clientThreadId: t.thread.clientThreadId ?? null,
      totals: totalsDto(t.totals),
      calls: t.calls.map((call) => this.callDto(g, call)),
      generations: gens?.generations ?? [],
      generationsTotal: gens?.total ?? 0,
      pins: [...c.pins].sort(),
      removals: [...c.removals].sort(),
    };
  }

  private callDto(g: RunningGateway | undefined, call: GatewayCall): GatewayCallDto {
    const { promptBytes: _bytes, original: _original, ...rest } = call;
    return { ...structuredClone(rest), hasRequest: g?.book.hasRequest(call.id) ?? false };
  }

  private changed(call: GatewayCall): void {
    if (this.#closed) return;
    this.#pendingCalls.set(call.id, call);
    this.#pendingSessions.add(call.sessionId);
    this.schedule();
  }

  private schedule(): void {
    this.#stopTimer ??= this.o.scheduler.every(GATEWAY_EVENT_MS, () => this.flush());
  }

  /** Sends the calls and sessions that changed since the last flush (one message each). */
  flush(): void {
    const g = this.current;
    if (this.#pendingCalls.size > 0) {
      const calls = [...this.#pendingCalls.values()].map((c) => this.callDto(g, c));
      this.#pendingCalls.clear();
      this.o.emit({ name: 'gateway.call', payload: { calls } });
    }
    if (this.#pendingSessions.size > 0 && g) {
      const sessions = [...this.#pendingSessions].map((id) => g.book.session(id)).filter((s): s is SessionEntry => s !== undefined).map((s) => this.sessionDto(g, s));
      this.#pendingSessions.clear();
      if (sessions.length > 0) this.o.emit({ name: 'gateway.session', payload: { sessions } });
    }
    if (this.#pendingCalls.size === 0 && this.#pendingSessions.size === 0) {
      this.#stopTimer?.();
      this.#stopTimer = undefined;
    }
  }

  private emitStatus(): void {
    if (!this.#closed) this.o.emit({ name: 'gateway.status', payload: { status: this.status() } });
  }
}
