import type { AgentImpactDto, ItemControl } from '../../../engine/contract';

/** An item control that asks first: it shows which agents it touches and what their cache loses. */
export type AskedControl = Extract<ItemControl, 'remove' | 'verify' | 'promote'>;

/** Actions of the controls slice: a control used on one thing (by its key), its outcome, and dismissing it; an item control asked before use. */
export type ControlsAction =
  | { type: 'control.pending'; key: string; label: string }
  | { type: 'control.done'; key: string; label: string; message: string }
  | { type: 'control.failed'; key: string; label: string; message: string }
  | { type: 'control.dismiss'; key: string }
  | { type: 'control.ask'; itemId: string; change: AskedControl; title: string }
  | { type: 'control.preview'; itemId: string; change: AskedControl; agents: AgentImpactDto[] }
  | { type: 'control.previewFailed'; itemId: string; change: AskedControl; message: string }
  | { type: 'control.askClose' };
