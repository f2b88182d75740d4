import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ItemDto } from '../../../../../engine/contract';
import { Candidates } from '../../../../../renderer/views/memory/Candidates';
import { initialRootState } from '../../../../../renderer/store/reduce';
import { renderWithStore } from '../../renderWithStore';

afterEach(cleanup);

const failure = (id: string, at: number, content: string): ItemDto => ({
  id,
  kind: 'failure',
  class: 'task_state',
  title: 'failing: npm test -- tests/unit/store.spec.ts',
  content,
  contentHash: `h-${id}`,
  provenance: { source: 'test_result', agentId: 'worker-store', taskId: 't', at, confidence: 0.9, relevance: 0.5, durability: 'task', verified: false, files: [], symbols: [] },
  pinned: false,
  mandatory: false,
  phase: null,
});

describe('Candidates: rows that look alike', () => {
  it('say that another row has the same title, and show where their texts differ', () => {
    const head = 'FAIL tests/unit/store.spec.ts > rotation > keeps the family on refresh: AssertionError: expected ';
    const items = [failure('f:1', 2, `${head}"fam-1" to be "fam-2"`), failure('f:2', 1, `${head}null to be "fam-2"`)];
    const state = { ...initialRootState, ui: { ...initialRootState.ui, selectedAgentId: 'worker-store' }, memory: { ...initialRootState.memory, status: 'ready' as const, candidates: { agentId: 'worker-store', items, error: null } } };
    renderWithStore(<Candidates />, state);
    const rows = within(screen.getByRole('table', { name: 'Candidates' })).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row.textContent).toContain('Another row has this title with a different text');
    expect(rows[0]!.querySelector('.mem__cand-snippet')?.textContent).toMatch(/^….*expected "fam-1" to be "fam-2"$/);
    expect(rows[1]!.querySelector('.mem__cand-snippet')?.textContent).toMatch(/^….*expected null to be "fam-2"$/);
  });
});
