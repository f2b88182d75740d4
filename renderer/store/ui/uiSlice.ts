import type { AgentStatus, AppCommand } from '../../../engine/contract';
import type { Action } from '../actions';
import type { EventKind } from '../events/eventKinds';
import { type ChartScope, defaultPaneLayout, type EventFocusKind, type PaneLayout, type ViewName } from './uiActions';

export interface UiState {
  view: ViewName;
  selectedAgentId: string | null;
  /** Collapsed tree nodes. */
  collapsed: Record<string, true>;
  filter: string;
  /** Statuses the tree shows; empty shows every status. */
  statusFilter: AgentStatus[];
  /** The purge-memory confirmation is open (only ever in the Memory view). */
  purgeDialog: boolean;
  /** The panes' sizes and collapsed states (remembered across loads by the shell). */
  layout: PaneLayout;
  /** Event kinds the Events view and the log strip leave out. */
  hiddenKinds: EventKind[];
  /** The keyboard shortcut list is open. */
  shortcutsDialog: boolean;
  /** What the charts draw. */
  chartScope: ChartScope;
  /** A filter the Events view takes over once (`n` tells a new request from the one applied). */
  eventsFocus: { agentId: string; kinds: EventFocusKind[]; n: number } | null;
}

/** The view each desktop menu command shows. */
const COMMAND_VIEW: Record<AppCommand, ViewName> = {
  'show-agent': 'agent',
  'show-charts': 'charts',
  'show-compare': 'compare',
  'show-memory': 'memory',
  'show-skills': 'skills',
  'show-events': 'events',
  'show-gateway': 'gateway',
  'purge-memory': 'memory',
};

export const uiInitialState: UiState = { view: 'agent', selectedAgentId: null, collapsed: {}, filter: '', statusFilter: [], purgeDialog: false, layout: defaultPaneLayout, hiddenKinds: [], shortcutsDialog: false, chartScope: 'agent', eventsFocus: null };

export function reduceUi(state: UiState, action: Action): UiState {
  switch (action.type) {
    case 'agent.select':
      return { ...state, selectedAgentId: action.agentId };
    case 'view.select':
      return state.view === action.view ? state : { ...state, view: action.view, purgeDialog: false };
    case 'purge.dialog':
      return state.purgeDialog === action.open ? state : { ...state, purgeDialog: action.open };
    case 'event': {
      if (action.event.name !== 'app.command') return state;
      const { command } = action.event.payload;
      const view = COMMAND_VIEW[command];
      const purgeDialog = command === 'purge-memory' ? true : view === state.view && state.purgeDialog;
      return view === state.view && purgeDialog === state.purgeDialog ? state : { ...state, view, purgeDialog };
    }
    case 'tree.toggle': {
      const collapsed = { ...state.collapsed };
      if (collapsed[action.agentId]) delete collapsed[action.agentId];
      else collapsed[action.agentId] = true;
      return { ...state, collapsed };
    }
    case 'tree.filter':
      return { ...state, filter: action.text };
    case 'tree.statusFilter':
      return { ...state, statusFilter: [...action.statuses] };
    case 'layout.set': {
      const layout = { ...state.layout, ...action.layout };
      return (Object.keys(layout) as (keyof PaneLayout)[]).every((k) => layout[k] === state.layout[k]) ? state : { ...state, layout };
    }
    case 'events.hideKinds':
      return { ...state, hiddenKinds: [...new Set(action.kinds)] };
    case 'shortcuts.dialog':
      return state.shortcutsDialog === action.open ? state : { ...state, shortcutsDialog: action.open };
    case 'charts.scope':
      return state.chartScope === action.scope ? state : { ...state, chartScope: action.scope };
    case 'events.focus':
      return { ...state, eventsFocus: { agentId: action.agentId, kinds: [...action.kinds], n: (state.eventsFocus?.n ?? 0) + 1 } };
    case 'events.focusTaken':
      return state.eventsFocus === null ? state : { ...state, eventsFocus: null };
    default:
      return state;
  }
}
