import type { RunDto } from '../../../engine/contract';

/** Actions of the runs slice: the `listRuns` answer and the run a control returned. */
export type RunsAction = { type: 'runs.list'; runs: RunDto[] } | { type: 'run.result'; run: RunDto };
