import { describe, expect, it } from 'vitest';
import { reduceSkills, skillsInitialState } from '../../../../../renderer/store/skills/skillsSlice';
import { makeSkills } from '../../compareMemoryFixtures';

describe('skillsSlice', () => {
  it('loads, takes the snapshot, and keeps the data on a failed reload', () => {
    let s = reduceSkills(skillsInitialState, { type: 'skills.loading' });
    s = reduceSkills(s, { type: 'skills.snapshot', skills: makeSkills() });
    expect(s).toMatchObject({ status: 'ready', data: { loaded: [{ name: 'git-hygiene' }, { name: 'ts-conventions' }] } });
    s = reduceSkills(s, { type: 'skills.error', message: 'host closed' });
    expect(s).toMatchObject({ status: 'failed', error: 'host closed' });
    expect(s.data).not.toBeNull();
  });
});
