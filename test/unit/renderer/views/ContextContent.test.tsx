import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reduce, type RootState } from '../../../../renderer/store/reduce';
import { ContextInspector } from '../../../../renderer/views/agent/ContextInspector';
import { demoTree, stateWithAgents } from '../fixtures';
import { makeGeneration, makeIncluded, makeItem, makeSummary } from '../generationFixtures';
import { renderWithStore } from '../renderWithStore';

function loaded(over: Parameters<typeof makeGeneration>[2] = {}): RootState {
  let s = stateWithAgents(demoTree(), { selectedAgentId: null });
  s = reduce(s, { type: 'agent.select', agentId: 'auth-1' });
  s = reduce(s, { type: 'generations.list', agentId: 'auth-1', generations: [makeSummary('auth-1', 1), makeSummary('auth-1', 2)] });
  return reduce(s, { type: 'generation.detail', detail: makeGeneration('auth-1', 2, over) });
}

const reads = [1, 2, 3, 4].map((n) => makeIncluded(makeItem(`tool:read-${n}`, { kind: 'code', class: 'ephemeral', title: 'read src/auth/token.ts', content: `export const v${n} = 'rotate';` }), { tokens: 50 }));

// jsdom has no layout: the inspector's width falls back to the wide layout, the pane beside the lists.
describe('the Context tab: categories, item content, search, duplicates', () => {
  afterEach(cleanup);

  it('shows categories with tokens, % of the budget and the free space', () => {
    renderWithStore(<ContextInspector />, loaded());
    const table = screen.getByRole('table', { name: 'Context categories' });
    const free = within(table).getByText('Free space').closest('tr') as HTMLElement;
    expect(free.textContent).toBe(' Free space48048%');
    const findings = within(table).getByText('Findings').closest('tr') as HTMLElement;
    expect(findings.textContent).toContain('30030%');
  });

  it('a title opens the item content pane with the whole text; close hides it', () => {
    const long = 'x'.repeat(5000) + ' the end';
    renderWithStore(<ContextInspector />, loaded({ included: [makeIncluded(makeItem('finding:long', { title: 'Long finding', content: long }), { tokens: 900 })] }));
    expect(screen.getByRole('complementary', { name: 'Item content' }).textContent).toContain("Select an item's title");
    fireEvent.click(screen.getByRole('button', { name: 'Long finding' }));
    const pane = screen.getByRole('complementary', { name: 'Item content' });
    expect(pane.getAttribute('data-item-id')).toBe('finding:long');
    expect(within(pane).getByLabelText('Content of Long finding').textContent).toBe(long);
    expect(pane.textContent).toContain('900 tokens');
    fireEvent.click(within(pane).getByRole('button', { name: 'Close the item content' }));
    expect(screen.queryByLabelText('Content of Long finding')).toBeNull();
  });

  it('the same file read four times is one row with its count, the copies inside', () => {
    const base = makeGeneration('auth-1', 2);
    renderWithStore(<ContextInspector />, loaded({ included: [...base.included, ...reads] }));
    const l2 = screen.getByRole('list', { name: 'Included in L2' });
    const group = l2.querySelector('[data-group-count]') as HTMLElement;
    expect(group.getAttribute('data-group-count')).toBe('4');
    expect(group.textContent).toContain('read src/auth/token.ts×4');
    expect(group.textContent).toContain('200 tok in all');
    expect(within(group).getByRole('list', { name: 'Copies of read src/auth/token.ts' }).children).toHaveLength(4);
    // The two findings and the group: three rows at the top level.
    expect([...l2.children].length).toBe(3);
  });

  it('the group row says whether it is open (aria-expanded), and turns as it opens and closes', async () => {
    const base = makeGeneration('auth-1', 2);
    renderWithStore(<ContextInspector />, loaded({ included: [...base.included, ...reads] }));
    const group = screen.getByRole('list', { name: 'Included in L2' }).querySelector('[data-group-count]') as HTMLElement;
    const summary = group.querySelector('summary') as HTMLElement;
    const details = group.querySelector('details') as HTMLDetailsElement;
    expect(summary.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(summary);
    await waitFor(() => expect(summary.getAttribute('aria-expanded')).toBe('true'));
    expect(details.open).toBe(true);
    fireEvent.click(summary);
    await waitFor(() => expect(summary.getAttribute('aria-expanded')).toBe('false'));
    expect(details.open).toBe(false);
  });

  it('search filters the lists and marks the matches in the open item', () => {
    const base = makeGeneration('auth-1', 2);
    renderWithStore(<ContextInspector />, loaded({ included: [...base.included, ...reads] }));
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search the context' }), { target: { value: 'rotate' } });
    expect(screen.getByText(/4 included and 0 dropped items match “rotate”/)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Included in L1' })).toBeNull();
    expect(screen.getByText('No dropped item matches.')).toBeTruthy();
    const copies = screen.getByRole('list', { name: 'Copies of read src/auth/token.ts' });
    fireEvent.click(within(copies).getAllByRole('button', { name: 'read src/auth/token.ts' })[1] as HTMLElement);
    const pane = screen.getByRole('complementary', { name: 'Item content' });
    expect(pane.getAttribute('data-item-id')).toBe('tool:read-2');
    expect([...pane.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['rotate']);
    expect(within(pane).getByRole('status').textContent).toBe('1 match');
  });
});
