import type { RunDto } from '../../../engine/contract';
import type { RootState } from '../reduce';

/** The run the bar controls: the active one (running, paused or idle), else the newest. */
export function selectActiveRun(s: RootState): RunDto | undefined {
  return s.runs.list.find((r) => r.status === 'running' || r.status === 'paused' || r.status === 'idle') ?? s.runs.list[0];
}
