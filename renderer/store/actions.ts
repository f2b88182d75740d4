import type { StrataEvent } from '../../engine/contract';
import type { AgentsAction } from './agents/agentsActions';
import type { ComparisonsAction } from './comparisons/comparisonsActions';
import type { ConnectionAction } from './connection/connectionActions';
import type { ControlsAction } from './controls/controlsActions';
import type { GatewayAction } from './gateway/gatewayActions';
import type { GenerationsAction } from './generations/generationsActions';
import type { MemoryAction } from './memory/memoryActions';
import type { RunsAction } from './runs/runsActions';
import type { SessionsAction } from './sessions/sessionsActions';
import type { SkillsAction } from './skills/skillsActions';
import type { TracesAction } from './traces/tracesActions';
import type { UiAction } from './ui/uiActions';
import type { UsageAction } from './usage/usageActions';

/**
 * Everything that can change the store: host events, snapshots from commands, and UI intents. Each
 * slice declares its own actions in its folder's actions file, which imports neither this union nor
 * a slice: the reducers import this union, and the types form no cycle.
 */
export type Action =
  | { type: 'event'; event: StrataEvent }
  /** Host events that arrived together, applied in order as one store change (one render). */
  | { type: 'events'; events: StrataEvent[] }
  | AgentsAction
  | UiAction
  | ConnectionAction
  | GenerationsAction
  | RunsAction
  | ControlsAction
  | UsageAction
  | TracesAction
  | ComparisonsAction
  | MemoryAction
  | SkillsAction
  | SessionsAction
  | GatewayAction;
