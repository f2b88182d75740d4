import type { RootState } from '../reduce';

/** Statuses the agent tree shows; empty shows every status. */
export const selectStatusFilter = (s: RootState): RootState['ui']['statusFilter'] => s.ui.statusFilter;
