import type { SkillsDto } from '../../../engine/contract';
import type { Action } from '../actions';
import type { LoadStatus } from '../loadStatus';

export interface SkillsState {
  data: SkillsDto | null;
  status: LoadStatus;
  error: string | null;
}

export const skillsInitialState: SkillsState = { data: null, status: 'idle', error: null };

/** Skills as `listSkills` last gave them (the selection changes with each agent request). */
export function reduceSkills(state: SkillsState, action: Action): SkillsState {
  switch (action.type) {
    case 'skills.loading':
      return { ...state, status: 'loading', error: null };
    case 'skills.snapshot':
      return { data: action.skills, status: 'ready', error: null };
    case 'skills.error':
      return { ...state, status: 'failed', error: action.message };
    default:
      return state;
  }
}
