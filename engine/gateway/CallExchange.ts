import { Utf8StreamDecoder } from '../text/Utf8StreamDecoder';
import type { GatewaySession, GatewayThread } from './GatewaySessions';
import { SseUsageReader } from './SseUsageReader';
import { costOfUsage, providerReasonOf, upstreamErrorOf, usageOfJson } from './usageOf';
import type { ExchangeSink, GatewayApi, GatewayCall, GatewayUsage } from './types';

/**
 * One call's exchange with the upstream as the server relays it (`[gateway-observe]`): it
 * reads the status, times, usage, error and cache-miss reason from the bytes passing through (an
 * event stream incrementally, a JSON body once it ended, at most `MAX_JSON_BODY` bytes of it) and
 * fills the call record, announcing it `started` when it is attached, `usage` when the usage is
 * first known and `ended` when the exchange ends. Events the server reports before the record
 * exists (the request is parsed after it went upstream) are kept and applied on `attach`.
 */

type GatewayCallEvent = 'started' | 'usage' | 'ended';

export interface GatewayCallUpdate {
  event: GatewayCallEvent;
  call: GatewayCall;
  session: GatewaySession;
  thread: GatewayThread;
}

const MAX_JSON_BODY = 16 * 1024 * 1024;

export class CallExchange implements ExchangeSink {
  private status: number | undefined;
  private firstByteAt: number | undefined;
  private endedAt: number | undefined;
  private endError: string | undefined;
  private sse: SseUsageReader | undefined;
  private json: Uint8Array[] = [];
  private jsonBytes = 0;
  private usage: GatewayUsage | undefined;
  private error: string | undefined;
  private providerReason: string | undefined;
  private target: { call: GatewayCall; session: GatewaySession; thread: GatewayThread; emit: (u: GatewayCallUpdate) => void } | undefined;
  private usageAnnounced = false;

  constructor(
    private readonly api: GatewayApi,
    private readonly receivedAt: number,
  ) {}

  upstreamStart(status: number, headers: Readonly<Record<string, string>>, at: number): void {
    this.status = status;
    this.firstByteAt = at;
    if ((headers['content-type'] ?? '').includes('text/event-stream')) this.sse = new SseUsageReader(this.api);
    this.apply();
  }

  upstreamChunk(chunk: Uint8Array, _at: number): void {
    if (this.sse) {
      this.sse.push(chunk);
      if (this.usage === undefined && this.sse.usage !== undefined) {
        this.usage = this.sse.usage;
        this.apply();
      }
    } else if (this.jsonBytes + chunk.length <= MAX_JSON_BODY) {
      this.json.push(chunk);
      this.jsonBytes += chunk.length;
    } else {
      this.jsonBytes = MAX_JSON_BODY + 1;
      this.json = [];
    }
  }

  upstreamEnd(outcome: { at: number; error?: string }): void {
    if (this.endedAt !== undefined) return;
    this.endedAt = outcome.at;
    if (outcome.error !== undefined) this.endError = outcome.error;
    if (this.sse) {
      this.sse.end();
      this.usage = this.sse.usage;
      this.error = this.sse.error;
      this.providerReason = this.sse.providerReason;
    } else if (this.jsonBytes > 0 && this.jsonBytes <= MAX_JSON_BODY) this.readJson();
    this.json = [];
    this.apply();
  }

  /** The call record this exchange fills; what happened so far is applied at once. */
  attach(call: GatewayCall, session: GatewaySession, thread: GatewayThread, emit: (u: GatewayCallUpdate) => void): void {
    this.target = { call, session, thread, emit };
    emit({ event: 'started', call, session, thread });
    this.apply();
  }

  private readJson(): void {
    const all = new Uint8Array(this.jsonBytes);
    let at = 0;
    for (const c of this.json) {
      all.set(c, at);
      at += c.length;
    }
    let body: unknown;
    try {
      body = JSON.parse(new Utf8StreamDecoder().decode(all));
    } catch {
      return;
    }
    this.usage = usageOfJson(this.api, body);
    this.error = upstreamErrorOf(body);
    this.providerReason = providerReasonOf(body);
  }

  private apply(): void {
    const t = this.target;
    if (!t) return;
    const call = t.call;
    if (this.status !== undefined) call.status = this.status;
    if (this.firstByteAt !== undefined) call.firstByteMs = Math.max(0, this.firstByteAt - this.receivedAt);
    if (this.usage !== undefined) {
      call.usage = this.usage;
      const cost = costOfUsage(call.model, this.usage);
      if (cost !== undefined) call.costUsd = cost;
      if (!this.usageAnnounced && this.endedAt === undefined) {
        this.usageAnnounced = true;
        t.emit({ event: 'usage', call, session: t.session, thread: t.thread });
      }
    }
    if (this.endedAt === undefined) return;
    call.durationMs = Math.max(0, this.endedAt - this.receivedAt);
    const error = this.endError ?? this.error ?? (this.status !== undefined && this.status >= 400 ? `HTTP ${this.status}` : undefined);
    if (error !== undefined) call.error = error;
    if (this.providerReason !== undefined) call.cacheBreak = { ...call.cacheBreak, providerReason: this.providerReason };
    t.emit({ event: 'ended', call, session: t.session, thread: t.thread });
    this.target = undefined;
  }
}
