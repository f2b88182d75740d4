import type { StrataApi } from '../../engine/contract';
import type { StrataStore } from '../store/store';

/**
 * The service layer between the api and the store: views call these, never the transport.
 * Subscribe first, then list, so no change falls between the snapshot and the live events
 * (the agents slice drops anything older than what it holds).
 */
export interface Controller {
  /** Subscribe to host events and load the workspace; call again after a reconnect. */
  sync(): Promise<void>;
  select(agentId: string | null): Promise<void>;
}

export function createController(api: StrataApi, store: StrataStore): Controller {
  const { dispatch } = store.getState();
  const report = (err: unknown) => dispatch({ type: 'connection.error', message: err instanceof Error ? err.message : String(err) });

  const loadDetail = async (agentId: string) => {
    const detail = await api.getAgent({ agentId });
    dispatch({ type: 'agent.detail', detail });
  };

  return {
    async sync() {
      try {
        await api.subscribe(['agent.updated', 'log'], (event) => dispatch({ type: 'event', event }));
        const [health, list] = await Promise.all([api.health({}), api.listAgents({})]);
        dispatch({ type: 'connection.health', health });
        dispatch({ type: 'agents.snapshot', agents: list.agents });
        const selected = store.getState().ui.selectedAgentId ?? list.agents[0]?.agentId ?? null;
        if (selected) await this.select(selected);
      } catch (err) {
        report(err);
      }
    },
    async select(agentId) {
      dispatch({ type: 'agent.select', agentId });
      if (!agentId) return;
      try {
        await loadDetail(agentId);
      } catch (err) {
        report(err);
      }
    },
  };
}
