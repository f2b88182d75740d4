import type { AgentDetailDto, AgentDto, HealthDto, LogEntry, StrataEvent } from '../../../engine/contract';
import { initialRootState, type RootState } from '../../../renderer/store/reduce';

/** A valid agent; tests override only what they are about. */
export function makeAgent(agentId: string, over: Partial<AgentDto> = {}): AgentDto {
  return {
    agentId,
    parent: null,
    role: 'worker',
    task: `task of ${agentId}`,
    model: 'model-a',
    status: 'running',
    generation: 1,
    tokens: 1_000,
    budget: 10_000,
    usage: { input: 0, cacheRead: 0, cacheWrite: 0, output: 0 },
    cacheHitRate: 0,
    revision: 1,
    updatedAt: '2025-01-01T00:00:00.000Z',
    boundary: null,
    lastError: null,
    ...over,
  };
}

export function makeLogEntry(seq: number, over: Partial<LogEntry> = {}): LogEntry {
  return { seq, at: '2025-01-01T00:00:00.000Z', level: 'info', agentId: null, message: `line ${seq}`, ...over };
}

export function makeHealth(over: Partial<HealthDto> = {}): HealthDto {
  return {
    ok: true,
    version: '0.1.0',
    workspace: { name: 'demo', catalogPath: '/tmp/demo.sqlite' },
    catalog: { schemaVersion: 1, journalMode: 'wal' },
    agents: 0,
    uptimeMs: 0,
    ...over,
  };
}

export function makeDetail(agent: AgentDto, recentLog: LogEntry[] = [], children: string[] = []): AgentDetailDto {
  return { agent, children, recentLog };
}

export const agentUpdated = (agent: AgentDto): StrataEvent => ({ name: 'agent.updated', payload: { agent } });
export const logEvent = (entry: LogEntry): StrataEvent => ({ name: 'log', payload: { entry } });

/** The root state holding `agents` in the given order. */
export function stateWithAgents(agents: AgentDto[], ui: Partial<RootState['ui']> = {}): RootState {
  return {
    ...initialRootState,
    agents: { byId: Object.fromEntries(agents.map((a) => [a.agentId, a])), order: agents.map((a) => a.agentId) },
    ui: { ...initialRootState.ui, ...ui },
  };
}

/**
 * The demo-like tree the view and selector tests share:
 *   primary -> auth-1 -> probe-1
 *           -> auth-2
 *           -> review
 */
export function demoTree(): AgentDto[] {
  return [
    makeAgent('primary', { role: 'primary', task: 'Ship the login flow', generation: 2 }),
    makeAgent('review', { parent: 'primary', role: 'reviewer', task: 'Review the diff', status: 'waiting' }),
    makeAgent('auth-1', { parent: 'primary', task: 'Build the OAuth callback' }),
    makeAgent('auth-2', { parent: 'primary', task: 'Session storage', generation: 3, status: 'refreshing' }),
    makeAgent('probe-1', { parent: 'auth-1', role: 'probe', task: 'Find the token parser', model: 'Haiku-Small' }),
  ];
}
