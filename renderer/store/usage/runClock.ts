import type { RunDto } from '../../../engine/contract';
import type { RootState } from '../reduce';
import { selectActiveRun } from '../runs/runsSelectors';

/**
 * The two clocks of the control room. A call's `at` is the run's clock: a replayed recording (the
 * demo, `driver: 'trace'`) stamps calls with the recording's own time, a model run with the wall
 * clock. The event log is always the wall clock (when the host wrote the line). Each view uses one
 * and says which.
 */
export type ClockName = 'recording time' | 'wall clock';

/** The clock the calls of `run` are stamped with (a run not known yet: the wall clock). */
export const clockOfRun = (run: Pick<RunDto, 'driver'> | undefined): ClockName => (run?.driver === 'trace' ? 'recording time' : 'wall clock');

/** The clock of the charts: that of the run the bar controls. */
export const selectChartClock = (s: RootState): ClockName => clockOfRun(selectActiveRun(s));

/** What a view's caption says of its clock. */
export const clockNote = (clock: ClockName): string =>
  clock === 'recording time' ? 'Times are recording time: the clock of the replayed recording, not when it played here.' : 'Times are wall clock (local time).';
