import { useCallback, useContext } from 'react';
import { ControllerContext, StoreContext } from '../controller/StoreContext';
import type { LogTarget } from '../store/log/logSelectors';

/** Opens what a log line or an event is about (see `useOpenLogTarget`). */
export type OpenLogTarget = (target: LogTarget) => Promise<void>;

/**
 * Open what a log line is about: select its agent, show the Agent view, and inspect the
 * generation the line names (the current one is followed, an older one shown as past). The same
 * function on every render, so rows that take it keep their memoized render.
 */
export function useOpenLogTarget(): OpenLogTarget {
  const store = useContext(StoreContext);
  const controller = useContext(ControllerContext);
  return useCallback<OpenLogTarget>(
    async ({ agentId, generation }) => {
      if (!store || !controller) return;
      const { dispatch } = store.getState();
      dispatch({ type: 'view.select', view: 'agent' });
      if (store.getState().ui.selectedAgentId !== agentId) await controller.select(agentId);
      const current = store.getState().agents.byId[agentId]?.generation;
      const past = generation !== null && current !== undefined && generation < current ? generation : null;
      if (past !== null || store.getState().generations.viewed !== null) await controller.viewGeneration(past);
    },
    [store, controller],
  );
}
