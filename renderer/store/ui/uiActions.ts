import type { AgentStatus } from '../../../engine/contract';
import type { EventKind } from '../events/eventKinds';

/** The main area's views (what `view.select` picks); the agent tree stays on the left in every one. */
export const VIEWS = ['agent', 'charts', 'compare', 'memory', 'skills', 'events', 'gateway'] as const;
export type ViewName = (typeof VIEWS)[number];

/** Actions of the ui slice: the selection, the view, the purge dialog and the agent tree's filters (the generations slice follows `agent.select`). */
export type UiAction =
  | { type: 'agent.select'; agentId: string | null }
  | { type: 'view.select'; view: ViewName }
  /** Open or close the purge-memory confirmation (the Memory view's button or the desktop menu). */
  | { type: 'purge.dialog'; open: boolean }
  | { type: 'tree.toggle'; agentId: string }
  | { type: 'tree.filter'; text: string }
  | { type: 'tree.statusFilter'; statuses: AgentStatus[] }
  /** Resize or collapse the panes (the rail, the log strip); the shell stores the layout (layoutStorage). */
  | { type: 'layout.set'; layout: Partial<PaneLayout> }
  /** Event kinds hidden from the Events view and the log strip (one click hides compactions). */
  | { type: 'events.hideKinds'; kinds: EventKind[] }
  /** Open or close the keyboard shortcut list ("?"). */
  | { type: 'shortcuts.dialog'; open: boolean }
  /** What the charts draw: the selected agent, the mean of all, or each agent on its own line. */
  | { type: 'charts.scope'; scope: ChartScope }
  /** Open the Events view on one agent's events of these kinds (a tree flag's cause). */
  | { type: 'events.focus'; agentId: string; kinds: EventFocusKind[] }
  /** The Events view took the focus filter over (it is not applied again when the view opens later). */
  | { type: 'events.focusTaken' };

/** The panes' sizes and collapsed states; null sizes follow the window (the CSS default). */
export interface PaneLayout {
  /** The agent rail's width in CSS pixels. */
  railWidth: number | null;
  railCollapsed: boolean;
  /** The log strip's height in CSS pixels (expanded). */
  stripHeight: number | null;
  stripCollapsed: boolean;
}

export const defaultPaneLayout: PaneLayout = { railWidth: null, railCollapsed: false, stripHeight: null, stripCollapsed: false };

/** Which calls the charts show: one agent's, all agents' in time slices, or each agent's line. */
export type ChartScope = 'agent' | 'overall' | 'each';
/** Event kinds a tree flag can open the Events view on. */
export type EventFocusKind = 'error' | 'refresh' | 'turn';
