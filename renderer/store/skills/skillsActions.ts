import type { SkillsDto } from '../../../engine/contract';

/** Actions of the skills slice: the `listSkills` answer. */
export type SkillsAction = { type: 'skills.loading' } | { type: 'skills.snapshot'; skills: SkillsDto } | { type: 'skills.error'; message: string };
