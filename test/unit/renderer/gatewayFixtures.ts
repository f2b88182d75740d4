import type { GatewayCallDto, GatewaySessionDetailDto, GatewaySessionDto, GatewayStatusDto, GatewayTotalsDto, StrataEvent } from '../../../engine/contract';

type Thread = GatewaySessionDetailDto['threads'][number];
type Generation = Thread['generations'][number];

/** A running gateway's status; tests override only what they are about. */
export function makeGatewayStatus(over: Partial<GatewayStatusDto> = {}): GatewayStatusDto {
  return {
    running: true,
    origin: 'http://127.0.0.1:8787',
    port: 8787,
    upstreams: { anthropic: 'https://api.anthropic.com', openai: 'https://api.openai.com/v1' },
    mode: 'observe',
    clients: [
      { client: 'Claude Code', where: 'shell', text: 'ANTHROPIC_BASE_URL=http://127.0.0.1:8787' },
      { client: 'OpenAI SDKs', where: 'shell', text: 'OPENAI_BASE_URL=http://127.0.0.1:8787/v1' },
    ],
    problem: null,
    ...over,
  };
}

export const stoppedGateway = (over: Partial<GatewayStatusDto> = {}): GatewayStatusDto => makeGatewayStatus({ running: false, origin: null, port: null, clients: [], ...over });

export function makeTotals(over: Partial<GatewayTotalsDto> = {}): GatewayTotalsDto {
  return { calls: 2, errors: 0, managed: 0, usage: { input: 1_000, cacheRead: 3_000, cacheWrite: 1_000, cacheWrite1h: 400, output: 200 }, costUsd: 0.0123, prefixReuse: 0.8, savedTokens: 0, savedUsd: 0, ...over };
}

export function makeGatewaySession(id: string, over: Partial<GatewaySessionDto> = {}): GatewaySessionDto {
  return { id, client: 'claude-code', clientSessionId: null, model: 'claude-sonnet-4-5', mode: 'observe', threads: 1, totals: makeTotals(), updatedAt: 1_000, ...over };
}

export function makeGatewayCall(id: string, over: Partial<GatewayCallDto> = {}): GatewayCallDto {
  return {
    id,
    sessionId: 'gs-1',
    threadId: 'th-main',
    api: 'anthropic-messages',
    model: 'claude-sonnet-4-5',
    mode: 'observe',
    startedAt: Date.UTC(2026, 0, 5, 9, 0, 0),
    firstByteMs: 120,
    durationMs: 840,
    status: 200,
    usage: { input: 500, cacheRead: 1_500, cacheWrite: 600, cacheWrite1h: 200, output: 100 },
    costUsd: 0.0061,
    prefixReuse: 0.75,
    cacheBreak: { at: 'appended', blockIndex: 4, unchangedBytes: 2_048 },
    hasRequest: false,
    ...over,
  };
}

export function makeGeneration(generation: number, over: Partial<Generation> = {}): Generation {
  return { generation, reason: generation === 1 ? 'first call' : 'budget reached', firstCall: generation, calls: 1, included: [], compressed: [], dropped: [], ...over };
}

export function makeThread(id: string, over: Partial<Thread> = {}): Thread {
  return { id, parentId: null, label: id === 'th-main' ? 'main' : id, clientThreadId: null, totals: makeTotals(), calls: [], generations: [], generationsTotal: 0, pins: [], removals: [], ...over };
}

export function makeGatewayDetail(sessionId: string, threads: Thread[] = [makeThread('th-main')], over: Partial<GatewaySessionDto> = {}): GatewaySessionDetailDto {
  return { session: makeGatewaySession(sessionId, { threads: threads.length, ...over }), threads };
}

export const gatewayCallEvent = (...calls: GatewayCallDto[]): StrataEvent => ({ name: 'gateway.call', payload: { calls } });
export const gatewaySessionEvent = (...sessions: GatewaySessionDto[]): StrataEvent => ({ name: 'gateway.session', payload: { sessions } });
export const gatewayStatusEvent = (status: GatewayStatusDto): StrataEvent => ({ name: 'gateway.status', payload: { status } });
