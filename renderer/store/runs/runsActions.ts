import type { RunDto } from '../../../engine/contract';

/**
 * Actions of the runs slice: the `listRuns` answer and the run a control returned. `run.begun` is
 * not dispatched by anyone: the root reducer adds it after the action that showed a new run starting
 * (`startsNewRun`), naming the agents of the run before, so every slice forgets what it held of them.
 */
export type RunsAction =
  | { type: 'runs.list'; runs: RunDto[] }
  | { type: 'run.result'; run: RunDto }
  | { type: 'run.begun'; run: RunDto; agentIds: string[] };
