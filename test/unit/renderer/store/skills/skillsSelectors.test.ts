import { describe, expect, it } from 'vitest';
import { skillUsers } from '../../../../../renderer/store/skills/skillsSelectors';
import { makeSkills } from '../../compareMemoryFixtures';

describe('skills selectors', () => {
  it('skillUsers maps each skill to the agents whose last request carried it', () => {
    expect(skillUsers(makeSkills({ selected: [{ agentId: 'a', names: ['x', 'y'], skipped: [], errors: [] }, { agentId: 'b', names: ['x'], skipped: [], errors: [] }] }))).toEqual({ x: ['a', 'b'], y: ['a'] });
  });
});
