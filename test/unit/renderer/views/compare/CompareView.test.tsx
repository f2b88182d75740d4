import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { COMPARISON_MAX_TRACES } from '../../../../../engine/contract';
import { comparisonsInitialState } from '../../../../../renderer/store/comparisons/comparisonsSlice';
import { selectChartData } from '../../../../../renderer/store/comparisons/comparisonsSelectors';
import { initialRootState, type RootState } from '../../../../../renderer/store/reduce';
import { tracesInitialState } from '../../../../../renderer/store/traces/tracesSlice';
import { CompareView } from '../../../../../renderer/views/compare/CompareView';
import { SkillsView } from '../../../../../renderer/views/skills/SkillsView';
import { skillsInitialState } from '../../../../../renderer/store/skills/skillsSlice';
import { renderWithStore } from '../../renderWithStore';
import { signedPercent } from '../../../../../renderer/views/compare/RecordedTable';
import { makeComparison, makeRecorded, makeResult, makeSkills, makeTrace, makeTwoTraceComparison, progressEvent } from '../../compareMemoryFixtures';

afterEach(cleanup);

const state = (over: Partial<RootState> = {}): RootState => ({
  ...initialRootState,
  traces: { ...tracesInitialState, status: 'ready', list: [makeTrace('tr_a', { name: 'session.jsonl' })] },
  comparisons: { ...comparisonsInitialState, form: { ...comparisonsInitialState.form, traceIds: ['tr_a'] } },
  ...over,
});

describe('compare view', () => {
  it('loads traces, and runs the picked strategies at the typed budget', () => {
    const { controller } = renderWithStore(<CompareView />, state());
    expect(controller.loadTraces).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('checkbox', { name: 'summary' }));
    fireEvent.change(screen.getByLabelText('Budget (tokens)'), { target: { value: '8000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run comparison' }));
    expect(controller.startComparison).toHaveBeenCalledWith({ traceIds: ['tr_a'], strategies: ['variable', 'summary', 'full_history_baseline'], budget: 8000 });
  });

  it('runs several budgets typed with commas, and refuses repeats or too many', () => {
    const { controller } = renderWithStore(<CompareView />, state());
    const input = screen.getByLabelText('Budget (tokens)');
    const run = screen.getByRole('button', { name: 'Run comparison' }) as HTMLButtonElement;
    fireEvent.change(input, { target: { value: '16000, 64000' } });
    fireEvent.click(run);
    expect(controller.startComparison).toHaveBeenCalledWith({ traceIds: ['tr_a'], strategies: ['variable', 'full_history_baseline'], budgets: [16_000, 64_000] });
    fireEvent.change(input, { target: { value: '16000, 16000' } });
    expect(run.disabled).toBe(true);
    fireEvent.change(input, { target: { value: '2000,3000,4000,5000,6000,7000,8000' } });
    expect(run.disabled).toBe(true);
    expect(screen.getByText(/or up to 6 different ones separated by commas/)).toBeTruthy();
  });

  it('[trace-compare-cancel] offers Cancel while the comparison runs', () => {
    const running = makeComparison({ status: 'running', results: [], progress: { done: 1, total: 2 } });
    const { controller } = renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': running }, progress: { 'cmp-1': { done: 1, total: 2, status: 'running' } } } }));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel comparison' }));
    expect(controller.cancelComparison).toHaveBeenCalledWith('cmp-1');
  });

  it('[trace-compare-history] lists past comparisons to reopen, names removed traces, and says when the one shown lost its trace', () => {
    const saved = makeComparison({ comparisonId: 'cmp-2', traces: [{ traceId: 'tr_gone', name: 'gone.jsonl', removed: true }], traceIds: ['tr_gone'], results: [makeResult('tr_gone', 'variable', [100, 200])] });
    const summary = { comparisonId: 'cmp-2', status: 'finished' as const, traces: saved.traces, strategies: saved.strategies, budgets: [32_000], provider: 'anthropic' as const, model: null, startedAt: 1, finishedAt: 2, progress: { done: 2, total: 2 } };
    const other = { ...summary, comparisonId: 'cmp-1', traces: [{ traceId: 'tr_a', name: 'session.jsonl', removed: false }] };
    const { controller } = renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-2', byId: { 'cmp-2': saved }, history: [summary, other] } }));
    expect(controller.loadComparisons).toHaveBeenCalled();
    const list = screen.getByRole('list', { name: 'Past comparisons' });
    expect(list.querySelectorAll('li')[0]!.textContent).toMatch(/cmp-2 · .* · gone\.jsonl \(removed\) · variable, baseline \(transcript\) · 32,000 tokens · finished/);
    expect((screen.getByRole('button', { name: 'Open cmp-2' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Open cmp-1' }));
    expect(controller.openComparison).toHaveBeenCalledWith('cmp-1');
    expect(screen.getByRole('status').textContent).toContain('gone.jsonl has been removed from the catalog; the results below are as this comparison saved them');
    // The saved name still labels its rows.
    expect(screen.getByRole('table', { name: 'Comparison totals' }).textContent).toContain('variable');
  });

  it('[trace-remove] removes an imported trace only after a confirmation', () => {
    const { controller } = renderWithStore(<CompareView />, state());
    fireEvent.click(screen.getByRole('button', { name: 'Remove session.jsonl' }));
    const ask = screen.getByRole('group', { name: 'Remove session.jsonl?' });
    expect(ask.textContent).toContain('Past comparisons keep their results');
    fireEvent.click(screen.getByRole('button', { name: 'Keep' }));
    expect(controller.removeTrace).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Remove session.jsonl' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove' }));
    expect(controller.removeTrace).toHaveBeenCalledWith('tr_a');
  });

  it('charts one budget at a time with the baselines, and cost against recall over every budget', () => {
    const at = (b: number) => ({ ...makeResult('tr_a', 'variable', [100, 200 + b / 1000]), budget: b });
    const done = makeComparison({ budgets: [16_000, 64_000], budget: 16_000, results: [at(16_000), at(64_000), makeResult('tr_a', 'full_history_baseline', [100, 250])] });
    const { store } = renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': done } } }));
    expect(screen.getByText(/budgets 16,000, 64,000/)).toBeTruthy();
    const pick = screen.getByLabelText('Chart budget') as HTMLSelectElement;
    expect([...pick.options].map((o) => o.value)).toEqual(['16000', '64000']);
    expect(selectChartData(store.getState())!.results.map((r) => [r.strategy, r.budget])).toEqual([['variable', 16_000], ['full_history_baseline', null]]);
    act(() => void fireEvent.change(pick, { target: { value: '64000' } }));
    expect(selectChartData(store.getState())!.results.map((r) => [r.strategy, r.budget])).toEqual([['variable', 64_000], ['full_history_baseline', null]]);
    expect(selectChartData(store.getState())!.allBudgets).toHaveLength(3);
    expect(screen.getByRole('figure', { name: 'Cost against recall (top left is best)' })).toBeTruthy();
    // Each budget has its own row in the totals.
    expect([...screen.getByRole('table', { name: 'Comparison totals' }).querySelectorAll('tbody tr')].map((r) => r.getAttribute('data-budget'))).toEqual(['16000', '64000', 'none']);
  });

  it('[replay-ttl] sends the cache TTL and the model to price when chosen, and leaves them to the recording otherwise', () => {
    const { controller } = renderWithStore(<CompareView />, state());
    expect((screen.getByLabelText('Cache TTL') as HTMLSelectElement).value).toBe('');
    fireEvent.change(screen.getByLabelText('Cache TTL'), { target: { value: '1h' } });
    fireEvent.change(screen.getByLabelText('Price as model'), { target: { value: ' claude-opus-4-6 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run comparison' }));
    expect(controller.startComparison).toHaveBeenLastCalledWith({ traceIds: ['tr_a'], strategies: ['variable', 'full_history_baseline'], budget: 32_000, ttl: '1h', model: 'claude-opus-4-6' });
  });

  it('[replay-window-default] sends the context window when one is typed, refuses one out of bounds, and shows each replay\'s window with where it came from', () => {
    const { controller } = renderWithStore(<CompareView />, state());
    const input = screen.getByLabelText('Context window (tokens)') as HTMLInputElement;
    expect(input.value).toBe('');
    for (const bad of ['999', '10000001', '150000.5', '1e6', 'abc']) {
      fireEvent.change(input, { target: { value: bad } });
      expect((screen.getByRole('button', { name: 'Run comparison' }) as HTMLButtonElement).disabled, bad).toBe(true);
      expect(screen.getByText('Empty, or a whole number from 1,000 to 10,000,000.')).toBeTruthy();
    }
    fireEvent.click(screen.getByRole('button', { name: 'Run comparison' }));
    expect(controller.startComparison).not.toHaveBeenCalled();
    fireEvent.change(input, { target: { value: ' 150000 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Run comparison' }));
    expect(controller.startComparison).toHaveBeenLastCalledWith({ traceIds: ['tr_a'], strategies: ['variable', 'full_history_baseline'], budget: 32_000, window: 150_000 });
    cleanup();
    renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': makeComparison({ window: 150_000 }) } } }));
    const table = screen.getByRole('table', { name: 'Comparison totals' });
    expect([...table.querySelectorAll('thead th')].map((th) => th.textContent)).toContain('window');
    const cell = [...table.querySelectorAll('tbody td')].find((td) => td.textContent === '200,000: model table');
    expect(cell?.getAttribute('title')).toMatch(/^recorded model claude-sonnet-4-5 \(https:/);
    expect(screen.getByText(/window 150,000 tokens/)).toBeTruthy();
  });

  it('[compare-money] lists the host’s notes under the totals: what the dollars and the cache TTLs rest on', () => {
    const notes = ['USD: US dollars at list prices …', 'price: claude-sonnet-4-5 (Claude Sonnet 4.5, 4.6): $3 input … (https://platform.claude.com/docs/en/about-claude/pricing, read 2026-12-01)', 'cache TTL of the breakpoints: 5m: default (session.jsonl)'];
    renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': makeComparison({ notes }) } } }));
    const list = screen.getByRole('list', { name: 'What the dollars and cache TTLs rest on' });
    expect([...list.querySelectorAll('li')].map((li) => li.textContent)).toEqual(notes);
    expect(screen.getByRole('figure', { name: 'Prompt cost (US dollars at list price)' })).toBeTruthy();
  });

  it('refuses to run without a strategy or with a budget out of bounds, and says why', () => {
    renderWithStore(<CompareView />, state());
    const run = screen.getByRole('button', { name: 'Run comparison' }) as HTMLButtonElement;
    fireEvent.change(screen.getByLabelText('Budget (tokens)'), { target: { value: '999' } });
    expect(run.disabled).toBe(true);
    expect(screen.getByText(/A whole number from 1,000 to 2,000,000/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Budget (tokens)'), { target: { value: '32000' } });
    fireEvent.click(screen.getByRole('checkbox', { name: 'variable' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'baseline (transcript)' }));
    expect(run.disabled).toBe(true);
    expect(screen.getByText('Pick at least one strategy.')).toBeTruthy();
  });

  it('drives the progress bar from comparison.progress and shows errors', () => {
    const running = makeComparison({ status: 'running', results: [], progress: { done: 0, total: 2 } });
    const { store } = renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': running }, error: '2 comparisons are running; wait for one to finish.' } }));
    expect(screen.getByRole('alert').textContent).toBe('2 comparisons are running; wait for one to finish.');
    const bar = screen.getByRole('progressbar', { name: 'Comparison progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('0');
    act(() => store.getState().dispatch({ type: 'event', event: progressEvent('cmp-1', 1, 2) }));
    expect(bar.getAttribute('aria-valuenow')).toBe('1');
    expect(screen.getByText('Replaying: 1 of 2 replays done')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Running…' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the totals side by side and the export buttons once finished; failed replays are listed', () => {
    const done = makeComparison({ errors: [{ traceId: 'tr_a', strategy: 'summary', error: 'worker crashed' }] });
    renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': done } } }));
    const rows = screen.getByRole('table', { name: 'Comparison totals' }).querySelectorAll('tbody tr');
    expect([...rows].map((r) => r.getAttribute('data-strategy'))).toEqual(['variable', 'full_history_baseline']);
    expect(rows[0]?.textContent).toContain('600');
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export JSON' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export Cumulative prompt tokens per step as PNG' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('summary: worker crashed');
  });

  it('shows what the provider recorded per trace beside both baselines, with signed errors, the fixed prefix, and — where there is none', () => {
    const done = makeComparison({
      traceIds: ['tr_a', 'tr_gone'],
      recorded: [makeRecorded('tr_a'), makeRecorded('tr_gone', { model: null, calls: 3, promptTokens: 900, uncachedTokens: 900, cacheWriteTokens: 0, hitRate: 0, costUsd: null, rereads: 0, asRecorded: null, fullHistory: null, prefix: null })],
    });
    renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': done } } }));
    const table = screen.getByRole('table', { name: 'Recorded by the provider' });
    // The text a reader sees (the screen-reader "(best)" and the headers' "lower is better" aside).
    const cells = (tr: Element) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent!.replace(/ \(best\)$/, ''));
    const rows = [...table.querySelectorAll('tbody tr')];
    expect(rows).toHaveLength(2);
    expect(cells(rows[0]!)).toEqual(['session.jsonl', 'claude-sonnet-4-5', '42', '1,234,567', '98,765', '92%', '$1.23', '3', 'anthropic', '1,278,900', '+3.6%', '+3.1%', '1,478,900', '+19.8%', 'recorded · scale 1.10']);
    // A trace no longer in the list shows its id; no model (so no list price) and no baseline: dashes.
    expect(cells(rows[1]!)).toEqual(['tr_gone', '—', '3', '900', '900', '0%', '—', '0', '—', '—', '—', '—', '—', '—', '—']);
    expect(cells(table.querySelectorAll('thead tr')[0]!)).toEqual(['recorded (provider)', 'as recorded (cache model)', 'full history (cache model)', 'fixed prefix']);
    expect(rows[0]!.querySelectorAll('td')[13]?.getAttribute('title')).toContain('token scale 1.100');
    const wrap = table.closest('.cmp__table-wrap') as HTMLElement;
    const notes = [...wrap.querySelectorAll('.cmp__note')].map((n) => n.textContent ?? '');
    expect(notes.some((n) => n.includes('what the provider billed the real agents') && n.includes('marked estimated'))).toBe(true);
    expect(notes.some((n) => n.includes('Add “as recorded') && n.includes('to see how close the cache model comes to the recording'))).toBe(true);
  });

  it('leaves out the baseline hint when every recorded trace has its as-recorded baseline, and the table when nothing was recorded', () => {
    const withBaseline = makeComparison({ recorded: [makeRecorded('tr_a', { asRecorded: { provider: 'openai', matched: 3, promptTokens: 500, hitRate: 0.5, promptError: null, cacheReadError: 0 }, fullHistory: null })] });
    renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': withBaseline } } }));
    const row = screen.getByRole('table', { name: 'Recorded by the provider' }).querySelector('tbody tr')!;
    expect([...row.querySelectorAll('td')].slice(6, 13).map((c) => c.textContent)).toEqual(['3', 'openai', '500', '—', '+0.0%', '—', '—']);
    expect(screen.queryByText(/to see how close the cache model comes/)).toBeNull();
    expect(screen.queryByText(/no cache writes/)).toBeNull();
    expect(screen.getByText(/token scale fitted on the recording/)).toBeTruthy();
    cleanup();
    renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': makeComparison() } } }));
    expect(screen.getByRole('table', { name: 'Comparison totals' })).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Recorded by the provider' })).toBeNull();
    expect(screen.queryByText(/token scale fitted on the recording/)).toBeNull();
  });

  it('marks a recording with cache reads but no cache writes: its hit rate is a bound, and a note says why', () => {
    const done = makeComparison({ recorded: [makeRecorded('tr_a', { cacheWriteTokens: 0, hitRate: 0.999, writesMissing: true })] });
    renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': done } } }));
    const row = screen.getByRole('table', { name: 'Recorded by the provider' }).querySelector('tbody tr')!;
    const hit = [...row.querySelectorAll('td')][4]!;
    expect(hit.textContent).toBe('*100%');
    expect(hit.getAttribute('title')).toMatch(/No cache writes recorded/);
    expect(screen.getByText(/Cache reads but no cache writes from a provider that bills them/)).toBeTruthy();
  });

  it('formats errors as signed percents with one decimal and a true minus sign', () => {
    expect([0.031, -0.126, 0, -0.00001, 1.5, null].map(signedPercent)).toEqual(['+3.1%', '−12.6%', '+0.0%', '+0.0%', '+150.0%', '—']);
  });

  it('has an empty state and a keyboard-reachable drop zone', () => {
    renderWithStore(<CompareView />, state({ traces: tracesInitialState }));
    expect(screen.getByText('Import a trace to compare strategies on it.')).toBeTruthy();
    const drop = screen.getByRole('button', { name: /Import a trace file/ });
    expect(drop.getAttribute('tabindex')).toBe('0');
  });
});

describe('compare view: several traces', () => {
  const twoTraces = (over: Partial<RootState> = {}): RootState =>
    state({ traces: { ...tracesInitialState, status: 'ready', list: [makeTrace('tr_b', { name: 'newer.jsonl', steps: 2 }), makeTrace('tr_a', { name: 'session.jsonl' })] }, ...over });
  const traceBox = (name: RegExp) => screen.getByRole('checkbox', { name }) as HTMLInputElement;
  const run = () => screen.getByRole('button', { name: 'Run comparison' }) as HTMLButtonElement;

  it('lists each imported trace as a labelled checkbox outside the strategies group; picking two runs both, in the list’s order', () => {
    const { controller, store } = renderWithStore(<CompareView />, twoTraces());
    const group = screen.getByRole('group', { name: 'Imported traces' });
    expect([...group.querySelectorAll('input[type="checkbox"]')].map((b) => b.closest('label')?.textContent)).toEqual(['newer.jsonl · 2 steps · claude-code-jsonl', 'session.jsonl · 3 steps · claude-code-jsonl']);
    expect(screen.getByRole('group', { name: 'Strategies' }).querySelectorAll('input[type="checkbox"]')).toHaveLength(7);
    expect(traceBox(/^session\.jsonl · /).checked).toBe(true);
    expect(traceBox(/^newer\.jsonl · /).checked).toBe(false);
    fireEvent.click(traceBox(/^newer\.jsonl · /));
    expect(store.getState().comparisons.form.traceIds).toEqual(['tr_b', 'tr_a']);
    expect(screen.getByText('2 of 2 selected')).toBeTruthy();
    fireEvent.click(run());
    expect(controller.startComparison).toHaveBeenCalledWith({ traceIds: ['tr_b', 'tr_a'], strategies: ['variable', 'full_history_baseline'], budget: 32_000 });
  });

  it('needs at least one trace, and says so', () => {
    const { controller } = renderWithStore(<CompareView />, twoTraces());
    expect(screen.queryByText('Pick at least one trace.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(traceBox(/^session\.jsonl · /).checked).toBe(false);
    expect(run().disabled).toBe(true);
    expect(screen.getByText('Pick at least one trace.')).toBeTruthy();
    fireEvent.click(run());
    expect(controller.startComparison).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    expect(run().disabled).toBe(false);
    expect(screen.queryByText('Pick at least one trace.')).toBeNull();
  });

  it('selects at most the contract’s cap of traces: Select all takes the newest, the others are disabled, and it says why', () => {
    const list = Array.from({ length: COMPARISON_MAX_TRACES + 1 }, (_, i) => makeTrace(`tr_${String(i).padStart(2, '0')}`));
    const { controller, store } = renderWithStore(<CompareView />, state({ traces: { ...tracesInitialState, status: 'ready', list }, comparisons: comparisonsInitialState }));
    fireEvent.click(screen.getByRole('button', { name: 'Select all' }));
    expect(store.getState().comparisons.form.traceIds).toEqual(list.slice(0, COMPARISON_MAX_TRACES).map((t) => t.id));
    const last = traceBox(/^tr_20\.jsonl · /);
    expect(last.checked).toBe(false);
    expect(last.disabled).toBe(true);
    expect(screen.getByText(/20 of 21 selected · at most 20 per comparison: clear one to pick another/)).toBeTruthy();
    fireEvent.click(run());
    expect(controller.startComparison.mock.calls[0]?.[0].traceIds).toHaveLength(COMPARISON_MAX_TRACES);
    fireEvent.click(traceBox(/^tr_00\.jsonl · /));
    expect(last.disabled).toBe(false);
    expect(screen.queryByText(/at most 20 per comparison/)).toBeNull();
    fireEvent.click(last);
    expect(store.getState().comparisons.form.traceIds).toHaveLength(COMPARISON_MAX_TRACES);
    expect(store.getState().comparisons.form.traceIds.at(-1)).toBe('tr_20');
  });

  it('says when an imported trace could not join a full selection', () => {
    const list = Array.from({ length: COMPARISON_MAX_TRACES + 1 }, (_, i) => makeTrace(`tr_${i}`));
    const traceIds = list.slice(1).map((t) => t.id);
    renderWithStore(<CompareView />, state({ traces: { ...tracesInitialState, status: 'ready', list, lastImport: { traceId: 'tr_0', name: 'late.json', alreadyImported: false } }, comparisons: { ...comparisonsInitialState, form: { ...comparisonsInitialState.form, traceIds } } }));
    expect(screen.getByRole('status').textContent).toBe('Imported late.json; not selected: a comparison takes at most 20 traces.');
  });

  it('adds an all-traces row per strategy to the totals, with the figures over both traces, and names the trace of a failed replay', () => {
    const done = makeTwoTraceComparison({ errors: [{ traceId: 'tr_b', strategy: 'summary', error: 'worker crashed' }] });
    renderWithStore(<CompareView />, twoTraces({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': done } } }));
    const table = screen.getByRole('table', { name: 'Comparison totals' });
    // The text a reader sees (the screen-reader "(best)" and the headers' "lower is better" aside).
    const cells = (tr: Element) => [...tr.querySelectorAll('th, td')].map((c) => c.textContent!.replace(/ \(best\)$/, ''));
    expect([...table.querySelectorAll('tbody tr')].map((r) => `${r.getAttribute('data-trace')}/${r.getAttribute('data-strategy')}`)).toEqual(['tr_a/variable', 'tr_a/full_history_baseline', 'tr_b/variable', 'tr_b/full_history_baseline']);
    // Dollars at the fixture's claude-sonnet-4-5 prices: 450 uncached at $3 and 50 read at $0.30 per million.
    expect(cells(table.querySelectorAll('tbody tr')[2]!)).toEqual(['newer.jsonl', 'variable', '32,000', '2', '500', '$0.0014', '450', '$0.0014', '5m: default', '200,000: model table', '10%', '50%', '20%', '75%', '3', '3', '2', '3']);
    const all = [...table.querySelectorAll('tfoot tr')];
    expect(all.map(cells)).toEqual([
      ['all 2 traces', 'variable', '32,000', '5', '1,100', '$0.0024', '780', '$0.0024', '5m: default', '—', '29%', '60%', '47%', '50%', '5', '4', '2', '3'],
      ['all 2 traces', 'baseline (transcript)', '—', '5', '1,650', '$0.0050', '1,650', '$0.0050', '5m: default', '—', '0%', '50%', '—', '—', '0', '2', '0', '0'],
    ]);
    expect(screen.getByText(/their prefix reuse byte-weighted over every step after each trace’s first/)).toBeTruthy();
    const heads = [...table.querySelectorAll('thead th')].map((th) => th.textContent!.replace(/ [↓↑] (lower|higher) is better$/, ''));
    expect(heads).toEqual(expect.arrayContaining(['prompt USD', 'total USD', 'cache TTL']));
    // Invalid requests (priced as nothing sent) sit beside the orphans.
    expect(heads.slice(-3)).toEqual(['refreshes', 'orphans', 'invalid']);
    expect(heads).toEqual(expect.arrayContaining(['recall pooled', 'recall per step', 'forced re-reads']));
    expect(screen.getByText(/a name alone does not count, and a first read is never held/)).toBeTruthy();
    expect(table.textContent).not.toMatch(/cost units|est\. cost/);
    expect(screen.getByRole('alert').textContent).toContain('newer.jsonl, summary: worker crashed');
  });

  it('highlights the best value of each judged column among one trace’s replays and among the all-traces rows, and says which way is better', () => {
    const done = makeTwoTraceComparison();
    renderWithStore(<CompareView />, twoTraces({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': done } } }));
    const table = screen.getByRole('table', { name: 'Comparison totals' });
    const column = (name: string) => [...table.querySelectorAll('thead th')].findIndex((th) => th.textContent!.startsWith(name));
    const bestOf = (tr: Element) => [...tr.querySelectorAll('th, td')].flatMap((c, i) => (c.getAttribute('data-best') ? [i] : []));
    const [aVar, aBase, bVar, bBase] = [...table.querySelectorAll('tbody tr')];
    // Fewer prompt tokens, fewer dollars and a higher hit rate win; the baseline forces no re-read.
    for (const row of [aVar!, bVar!]) expect(bestOf(row)).toEqual(expect.arrayContaining([column('prompt tokens'), column('prompt USD'), column('hit rate')]));
    for (const row of [aBase!, bBase!]) expect(bestOf(row)).toEqual(expect.arrayContaining([column('forced re-reads')]));
    expect(bestOf(aBase!)).not.toContain(column('prompt tokens'));
    // A column where every row is the same (prefix reuse, orphans) has no verdict; a value alone (recall beside a baseline's —) neither.
    for (const row of [aVar!, aBase!, bVar!, bBase!]) expect(bestOf(row)).not.toEqual(expect.arrayContaining([column('prefix reuse')]));
    expect(bestOf(aVar!)).not.toContain(column('recall pooled'));
    expect(bestOf(table.querySelector('tfoot tr')!)).toEqual(expect.arrayContaining([column('prompt tokens'), column('hit rate')]));
    expect(aVar!.querySelector('[data-best]')!.textContent).toMatch(/\(best\)$/);
    expect(table.querySelectorAll('thead th')[column('prompt tokens')]!.textContent).toContain('lower is better');
    expect(table.querySelectorAll('thead th')[column('hit rate')]!.textContent).toContain('higher is better');
    expect(table.querySelectorAll('thead th')[column('steps')]!.textContent).toBe('steps');
  });

  it('has no all-traces rows and no chart-trace choice for one trace', () => {
    renderWithStore(<CompareView />, state({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': makeComparison() } } }));
    expect(screen.getByRole('table', { name: 'Comparison totals' }).querySelector('tfoot')).toBeNull();
    expect(screen.queryByText(/all traces/)).toBeNull();
    expect(screen.queryByLabelText('Chart trace')).toBeNull();
    expect(document.getElementById('chart-cmp-1-prompt-tokens-png')).not.toBeNull();
  });

  it('charts one trace at a time: the chart-trace select switches the charts’ data and their export names', () => {
    const { store } = renderWithStore(<CompareView />, twoTraces({ comparisons: { ...comparisonsInitialState, currentId: 'cmp-1', byId: { 'cmp-1': makeTwoTraceComparison() } } }));
    const select = screen.getByLabelText('Chart trace') as HTMLSelectElement;
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ['tr_a', 'session.jsonl'],
      ['tr_b', 'newer.jsonl'],
    ]);
    expect(select.value).toBe('tr_a');
    const charts = document.querySelector('.cmp__charts') as HTMLElement;
    expect(charts.getAttribute('data-trace')).toBe('tr_a');
    expect(document.getElementById('chart-cmp-1-tr-a-prompt-tokens-png')).not.toBeNull();
    fireEvent.change(select, { target: { value: 'tr_b' } });
    expect(store.getState().comparisons.chartTraceId).toBe('tr_b');
    expect(select.value).toBe('tr_b');
    expect(charts.getAttribute('data-trace')).toBe('tr_b');
    expect(selectChartData(store.getState())?.prompt.at(-1)).toEqual({ step: 2, variable: 500, full_history_baseline: 900 });
    expect(document.getElementById('chart-cmp-1-tr-b-prompt-tokens-png')).not.toBeNull();
    expect(document.getElementById('chart-cmp-1-tr-a-prompt-tokens-png')).toBeNull();
    expect(screen.getByRole('button', { name: 'Export Cumulative prompt tokens per step as PNG' })).toBeTruthy();
  });
});

describe('skills view', () => {
  it('shows each skill’s metadata, who selected it, why others were left out, and load errors', () => {
    const { controller } = renderWithStore(<SkillsView />, { ...initialRootState, skills: { ...skillsInitialState, status: 'ready', data: makeSkills() } });
    expect(controller.loadSkills).toHaveBeenCalled();
    const ts = screen.getByRole('list', { name: 'Loaded skills' }).querySelector('[data-skill="ts-conventions"]') as HTMLElement;
    for (const text of ['v2.1.0', 'mode: always', 'workspace', 'typescript', 'depends on', 'git-hygiene', '900', 'used byprimary', '.strata/skills/ts/SKILL.md']) expect(ts.textContent).toContain(text);
    const git = screen.getByRole('list', { name: 'Loaded skills' }).querySelector('[data-skill="git-hygiene"]') as HTMLElement;
    expect(git.textContent).toContain('conflicts withyolo');
    const row = screen.getByRole('table', { name: 'Skills selected per agent' }).querySelector('[data-agent="primary"]') as HTMLElement;
    expect(row.textContent).toContain('ts-conventions');
    expect(row.textContent).toContain('git-hygiene over-budget needs 700 tokens, 200 left');
    expect(screen.getByRole('list', { name: 'Skill load errors' }).textContent).toContain('parse: front matter is not YAML');
  });

  it('shows a load failure', () => {
    renderWithStore(<SkillsView />, { ...initialRootState, skills: { ...skillsInitialState, status: 'failed', error: 'The connection to the Strata host was lost.' } });
    expect(screen.getByRole('alert').textContent).toBe('The connection to the Strata host was lost.');
  });
});
