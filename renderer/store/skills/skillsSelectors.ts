import type { SkillsDto } from '../../../engine/contract';
import type { RootState } from '../reduce';

export const selectSkillsState = (s: RootState) => s.skills;

/** Per loaded skill, the agents whose last request carried it. */
export function skillUsers(skills: SkillsDto): Record<string, string[]> {
  const users: Record<string, string[]> = {};
  for (const sel of skills.selected) for (const name of sel.names) (users[name] ??= []).push(sel.agentId);
  return users;
}
