import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { reduce, type RootState } from '../../../../renderer/store/reduce';
import { ContextInspector } from '../../../../renderer/views/agent/ContextInspector';
import { demoTree, stateWithAgents } from '../fixtures';
import { makeGeneration, makeSummary } from '../generationFixtures';
import { renderWithStore } from '../renderWithStore';

/** auth-1 with generations 1 and 2; `viewed` picked and loaded. */
function viewing(viewed: number | null, over: Parameters<typeof makeGeneration>[2] = {}): RootState {
  let s = stateWithAgents(demoTree(), { selectedAgentId: null });
  s = reduce(s, { type: 'agent.select', agentId: 'auth-1' });
  s = reduce(s, { type: 'generations.list', agentId: 'auth-1', generations: [makeSummary('auth-1', 1), makeSummary('auth-1', 2)] });
  s = reduce(s, { type: 'generation.view', number: viewed });
  return reduce(s, { type: 'generation.detail', detail: makeGeneration('auth-1', viewed ?? 2, over) });
}

describe('a past generation in the inspector', () => {
  afterEach(cleanup);

  it('says which generation is viewed, turns its item controls off with the reason, and offers the way back and a restore', () => {
    const { controller } = renderWithStore(<ContextInspector />, viewing(1));
    const banner = screen.getByRole('region', { name: 'Past generation' });
    expect(banner.textContent).toContain('You are viewing generation 1 of auth-1; the agent is on generation 2.');
    const row = within(screen.getByRole('list', { name: 'Included in L2' })).getByText('Title of finding:1').closest('li') as HTMLElement;
    const pin = within(row).getByRole('button', { name: 'Pin Title of finding:1' }) as HTMLButtonElement;
    expect(pin.disabled).toBe(true);
    expect(pin.title).toBe('Off while you view a past generation: go back to the current one to change items.');
    expect((within(row).getByRole('button', { name: 'Remove Title of finding:1' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(within(banner).getByRole('button', { name: 'Back to current (g2)' }));
    expect(controller.viewGeneration).toHaveBeenCalledExactlyOnceWith(null);
    fireEvent.click(within(banner).getByRole('button', { name: 'Restore from g1' }));
    expect(controller.restoreGeneration).toHaveBeenCalledExactlyOnceWith(1);
  });

  it('the current generation (picked by number or followed) has no banner and live controls', () => {
    for (const v of [2, null]) {
      renderWithStore(<ContextInspector />, viewing(v));
      expect(screen.queryByRole('region', { name: 'Past generation' })).toBeNull();
      expect((screen.getByRole('button', { name: 'Pin Title of finding:1' }) as HTMLButtonElement).disabled).toBe(false);
      cleanup();
    }
  });

  it('an item the pool let go is tagged and its controls are off, saying why, instead of failing', () => {
    renderWithStore(<ContextInspector />, viewing(null, { absent: ['finding:2'] }));
    const row = screen.getByText('Title of finding:2').closest('li') as HTMLElement;
    expect(within(row).getByText('not in the pool')).toBeTruthy();
    const verify = within(row).getByRole('button', { name: 'Verify Title of finding:2' }) as HTMLButtonElement;
    expect(verify.disabled).toBe(true);
    expect(verify.title).toMatch(/^No longer in the pool/);
    expect((screen.getByRole('button', { name: 'Pin Title of finding:1' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
