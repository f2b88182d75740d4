import type { RootState } from '../reduce';
import type { ControlOutcome } from './controlsSlice';

/** The outcome of the last control used on the thing of `key` (`itemKey`, `agentKey`, `RUN_KEY`). */
export const selectControl = (s: RootState, key: string): ControlOutcome | undefined => s.controls.byKey[key];
