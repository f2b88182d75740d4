import type { FlagCause } from '../store/agents/agentFlags';
import type { StoreState } from '../store/store';
import type { Controller } from './controller';

/**
 * Jump from a tree flag to what explains it: select the agent, then open the Events view on its
 * errors (or recent turns), the Agent view on the generation a refresh led to, or its charts.
 */
export async function openFlagCause(controller: Pick<Controller, 'select' | 'viewGeneration'>, dispatch: StoreState['dispatch'], cause: FlagCause): Promise<void> {
  await controller.select(cause.agentId);
  switch (cause.view) {
    case 'events':
      dispatch({ type: 'events.focus', agentId: cause.agentId, kinds: cause.kinds });
      dispatch({ type: 'view.select', view: 'events' });
      return;
    case 'charts':
      dispatch({ type: 'charts.scope', scope: 'agent' });
      dispatch({ type: 'view.select', view: 'charts' });
      return;
    case 'agent':
      dispatch({ type: 'view.select', view: 'agent' });
      await controller.viewGeneration(cause.generation);
      return;
  }
}
