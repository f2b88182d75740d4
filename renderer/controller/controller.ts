import type { StrataApi } from '../../engine/contract';
import type { StrataStore } from '../store/store';
import { AGENT_VIEW_EVENTS, createAgentViewController, type AgentViewController } from './agentViewController';
import { compareMemoryEvents, createCompareMemoryController, type CompareMemoryController } from './compareMemoryController';
import { EVENT_LOG_EVENTS } from '../store/events/eventsSlice';
import { USAGE_EVENTS } from '../store/usage/usageActions';
import { createEventQueue } from './eventQueue';
import { createGatewayController, type GatewayController } from './gatewayController';
import { GATEWAY_EVENTS } from '../store/gateway/gatewayActions';
import { createModelRunController, type ModelRunController } from './modelRunController';
import { createSessionsController, type SessionsController } from './sessionsController';
import { SESSION_EVENTS } from '../store/sessions/sessionsActions';

/**
 * The service layer between the api and the store: views call these, never the transport.
 * Subscribe first, then list, so no change falls between the snapshot and the live events
 * (the agents slice drops anything older than what it holds).
 */
export interface Controller extends AgentViewController, CompareMemoryController, SessionsController, ModelRunController, GatewayController {
  /** Subscribe to host events and load the workspace; call again after a reconnect. */
  sync(): Promise<void>;
  select(agentId: string | null): Promise<void>;
  /** Try to reach the host again now (after a drop or a refused token; the desktop app reloads). */
  reconnect(): void;
  /** Backfill one agent's per call usage for the charts (live calls keep arriving as events). */
  loadUsage(agentId: string): Promise<void>;
}

export function createController(api: StrataApi, store: StrataStore, transport: { reconnect(): void } = { reconnect: () => undefined }): Controller {
  const { dispatch } = store.getState();
  const report = (err: unknown) => dispatch({ type: 'connection.error', message: err instanceof Error ? err.message : String(err) });

  const loadDetail = async (agentId: string) => {
    const detail = await api.getAgent({ agentId });
    dispatch({ type: 'agent.detail', detail });
  };

  const agentView = createAgentViewController(api, store);
  const { onEvent: compareMemoryOnEvent, resync: compareMemoryResync, ...compareMemory } = createCompareMemoryController(api, store);
  const { onEvent: sessionsOnEvent, resync: sessionsResync, ...sessions } = createSessionsController(api, store);
  const { onEvent: gatewayOnEvent, resync: gatewayResync, ...gateway } = createGatewayController(api, store);
  // One store change per drawn frame, at most 20 a second, however many events arrived; the
  // controllers' own reactions (reloads) follow in the same order, after the store holds every event.
  const enqueue = createEventQueue((events) => {
    dispatch({ type: 'events', events });
    for (const event of events) {
      agentView.onEvent(event);
      compareMemoryOnEvent(event);
      sessionsOnEvent(event);
      gatewayOnEvent(event);
    }
  });

  const modelRun = createModelRunController(api, store, (agentId) => controller.select(agentId));

  const controller: Controller = {
    ...agentView,
    ...compareMemory,
    ...sessions,
    ...modelRun,
    ...gateway,
    async sync() {
      try {
        // Views share events (run.changed, memory.changed…): subscribe to each once.
        await api.subscribe([...new Set(['agent.updated', 'log', 'app.command', ...USAGE_EVENTS, ...EVENT_LOG_EVENTS, ...AGENT_VIEW_EVENTS, ...compareMemoryEvents, ...SESSION_EVENTS, ...GATEWAY_EVENTS] as const)], enqueue);
        compareMemoryResync();
        sessionsResync();
        gatewayResync();
        const [health, list] = await Promise.all([api.health({}), api.listAgents({})]);
        dispatch({ type: 'connection.health', health });
        dispatch({ type: 'agents.snapshot', agents: list.agents });
        const selected = store.getState().ui.selectedAgentId ?? list.agents[0]?.agentId ?? null;
        if (selected) await this.select(selected);
        await agentView.loadRuns();
      } catch (err) {
        report(err);
      }
    },
    reconnect: () => transport.reconnect(),
    async loadUsage(agentId) {
      dispatch({ type: 'usage.loading', agentId });
      try {
        dispatch({ type: 'usage.snapshot', usage: await api.getUsage({ agentId }) });
      } catch {
        // An agent outside the current run has no usage to load: its charts fill from live calls.
        dispatch({ type: 'usage.failed', agentId });
      }
    },
    async select(agentId) {
      dispatch({ type: 'agent.select', agentId });
      if (!agentId) return;
      const generations = agentView.loadGenerations(agentId);
      try {
        await loadDetail(agentId);
      } catch (err) {
        report(err);
      }
      await generations;
    },
  };

  // A new run began (`run.begun` emptied the run's views): load its agents, and the selected one
  // again (or the primary when the new run has no agent of that id yet), so nothing waits for a reload.
  const followRun = async () => {
    try {
      const list = await api.listAgents({});
      dispatch({ type: 'agents.snapshot', agents: list.agents });
      const selected = store.getState().ui.selectedAgentId;
      const next = selected && list.agents.some((a) => a.agentId === selected) ? selected : (list.agents[0]?.agentId ?? null);
      await controller.select(next);
      if (next) await controller.loadUsage(next);
    } catch (err) {
      report(err);
    }
  };
  store.subscribe((s, prev) => {
    if (s.runs.epoch !== prev.runs.epoch) void followRun();
  });
  return controller;
}
