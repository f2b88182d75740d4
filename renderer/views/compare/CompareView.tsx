import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ComparisonStrategy } from '../../../engine/contract';
import { COMPARISON_BUDGET, COMPARISON_MAX_BUDGETS, COMPARISON_WINDOW } from '../../../engine/shared/limits';
import { COMPARISON_STRATEGIES } from '../../../engine/shared/strategyNames';
import { useController, useDispatch, useStrata } from '../../controller/StoreContext';
import {
  pickedTraceIds,
  selectChartData,
  selectCompareError,
  selectCompareHistory,
  selectCompareForm,
  selectCompareRunning,
  selectCurrentComparison,
  selectCurrentProgress,
} from '../../store/comparisons/comparisonsSelectors';
import { selectTraces } from '../../store/traces/tracesSelectors';
import { CostChart, CostRecallChart, CumulativeChart, RatesChart } from './CompareCharts';
import { ComparisonHistory } from './ComparisonHistory';
import { parseBudgets } from './parseBudgets';
import { comparisonCsv, comparisonJson, exportName } from './exportResults';
import { downloadText } from './download';
import { ProgressBar } from './ProgressBar';
import { RecordedTable } from './RecordedTable';
import { STRATEGY_LABEL } from './strategies';
import { TotalsTable } from './TotalsTable';
import { TracePicker } from './TracePicker';
import './compare.css';

/** Replay one or more traces under several strategies at one or more budgets, show them side by side with a verdict per column, and reopen past comparisons. */
export function CompareView() {
  const controller = useController();
  const dispatch = useDispatch();
  const form = useStrata(selectCompareForm);
  const traces = useStrata(selectTraces);
  const running = useStrata(selectCompareRunning);
  const error = useStrata(selectCompareError);
  const comparison = useStrata(selectCurrentComparison);
  // A new object when it comes from the DTO: compared by its fields.
  const progress = useStrata(useShallow(selectCurrentProgress));
  const chart = useStrata(selectChartData);
  const history = useStrata(selectCompareHistory);
  const [budgetText, setBudgetText] = useState(String(form.budget));

  useEffect(() => {
    void controller.loadTraces();
    void controller.loadComparisons();
  }, [controller]);

  const budgets = parseBudgets(budgetText);
  const budgetValid = budgets !== null;
  const windowInput = form.window.trim();
  const windowTokens = Number(windowInput);
  const windowValid = windowInput === '' || (/^\d+$/.test(windowInput) && windowTokens >= COMPARISON_WINDOW.min && windowTokens <= COMPARISON_WINDOW.max);
  const traceIds = useMemo(() => pickedTraceIds(traces, form.traceIds), [traces, form.traceIds]);
  const canRun = traceIds.length > 0 && form.strategies.length > 0 && budgetValid && windowValid && !running;
  const toggle = (s: ComparisonStrategy, on: boolean) => {
    const next = on ? COMPARISON_STRATEGIES.filter((x) => x === s || form.strategies.includes(x)) : form.strategies.filter((x) => x !== s);
    dispatch({ type: 'compare.form', form: { strategies: next } });
  };
  const run = () => {
    if (!canRun || !budgets) return;
    dispatch({ type: 'compare.form', form: { budget: budgets[0]! } });
    const model = form.model.trim();
    void controller.startComparison({ traceIds, strategies: form.strategies, ...(budgets.length === 1 ? { budget: budgets[0]! } : { budgets }), ...(form.ttl ? { ttl: form.ttl } : {}), ...(model ? { model } : {}), ...(windowInput ? { window: windowTokens } : {}) });
  };
  const results = comparison?.results ?? [];
  const finished = comparison && comparison.status !== 'running';
  // The names a comparison saved, so a removed trace is still named.
  const names = new Map([...(comparison?.traces ?? []).map((t) => [t.traceId, t.name] as const), ...traces.map((t) => [t.id, t.name] as const)]);
  const nameOf = (id: string) => names.get(id) ?? id;
  const removed = (comparison?.traces ?? []).filter((t) => t.removed);
  const budgetsRun = comparison?.budgets ?? [];
  const multiTrace = (comparison?.traceIds.length ?? 0) > 1;
  // One trace charted at a time: its name goes into the exported images and their file names.
  const chartMulti = !!chart && chart.traceIds.length > 1;
  const chartBudgets = !!chart && chart.budgets.length > 1;
  const fileBase = comparison ? `${chartMulti && chart ? `${comparison.comparisonId}-${chart.traceId}` : comparison.comparisonId}${chartBudgets && chart?.budget ? `-${chart.budget}` : ''}` : '';
  const pngTitle = (title: string, perBudget = true) => {
    const parts = [chartMulti && chart ? nameOf(chart.traceId) : null, perBudget && chartBudgets && chart?.budget ? `budget ${chart.budget.toLocaleString('en-US')}` : null].filter(Boolean);
    return parts.length > 0 ? `${title} · ${parts.join(' · ')}` : undefined;
  };

  return (
    <section className="cmp" aria-label="Compare strategies">
      <form
        className="cmp__form"
        onSubmit={(e) => {
          e.preventDefault();
          run();
        }}
      >
        <TracePicker />
        <fieldset className="cmp__box">
          <legend>Strategies</legend>
          <div className="cmp__checks">
            {COMPARISON_STRATEGIES.map((s) => (
              <label key={s} className="cmp__check">
                <input type="checkbox" checked={form.strategies.includes(s)} onChange={(e) => toggle(s, e.target.checked)} />
                {STRATEGY_LABEL[s]}
              </label>
            ))}
          </div>
          <div className="cmp__row">
            <label className="cmp__label" htmlFor="cmp-budget">
              Budget (tokens)
            </label>
            <input
              id="cmp-budget"
              className="cmp__input cmp__input--wide"
              type="text"
              inputMode="numeric"
              value={budgetText}
              aria-invalid={!budgetValid}
              aria-describedby="cmp-budget-help"
              onChange={(e) => setBudgetText(e.target.value)}
            />
            <button type="submit" className="cmp__btn cmp__btn--primary" disabled={!canRun}>
              {running ? 'Running…' : 'Run comparison'}
            </button>
            {running && comparison?.status === 'running' && (
              <button type="button" className="cmp__btn" onClick={() => void controller.cancelComparison(comparison.comparisonId)}>
                Cancel comparison
              </button>
            )}
          </div>
          <p id="cmp-budget-help" className={budgetValid ? 'cmp__note' : 'cmp__error'}>
            {budgetValid
              ? `The agents’ token budget (the baselines ignore it). Several, separated by commas (up to ${COMPARISON_MAX_BUDGETS}), replay every strategy at each.`
              : `A whole number from ${COMPARISON_BUDGET.min.toLocaleString('en-US')} to ${COMPARISON_BUDGET.max.toLocaleString('en-US')}, or up to ${COMPARISON_MAX_BUDGETS} different ones separated by commas.`}
          </p>
          {form.strategies.length === 0 && <p className="cmp__error">Pick at least one strategy.</p>}
          <div className="cmp__row">
            <label className="cmp__label" htmlFor="cmp-ttl">
              Cache TTL
            </label>
            <select id="cmp-ttl" className="cmp__select cmp__select--narrow" value={form.ttl} onChange={(e) => dispatch({ type: 'compare.form', form: { ttl: e.target.value as '' | '5m' | '1h' } })}>
              <option value="">from the recording (else 5 minutes)</option>
              <option value="5m">5 minutes</option>
              <option value="1h">1 hour</option>
            </select>
            <label className="cmp__label" htmlFor="cmp-model">
              Price as model
            </label>
            <input id="cmp-model" className="cmp__input cmp__input--wide" type="text" placeholder="the recorded model" value={form.model} maxLength={200} onChange={(e) => dispatch({ type: 'compare.form', form: { model: e.target.value } })} />
          </div>
          <div className="cmp__row">
            <label className="cmp__label" htmlFor="cmp-window">
              Context window (tokens)
            </label>
            <input
              id="cmp-window"
              className="cmp__input cmp__input--wide"
              type="text"
              inputMode="numeric"
              placeholder="the recording’s, else the model’s"
              value={form.window}
              aria-invalid={!windowValid}
              aria-describedby="cmp-window-help"
              onChange={(e) => dispatch({ type: 'compare.form', form: { window: e.target.value } })}
            />
          </div>
          <p id="cmp-window-help" className={windowValid ? 'cmp__note' : 'cmp__error'}>
            {windowValid
              ? 'A request over it is refused as the provider would and the engine refreshes. Empty: the window the recording states, else the priced model’s documented one (engine/models/contextWindows.ts, with sources), else none; the notes say which.'
              : `Empty, or a whole number from ${COMPARISON_WINDOW.min.toLocaleString('en-US')} to ${COMPARISON_WINDOW.max.toLocaleString('en-US')}.`}
          </p>
          <p className="cmp__note">Costs are US dollars at the model’s list price (the price table and its sources are in engine/pricing/listPrices.ts); a model without one is said so and left out of the dollars.</p>
        </fieldset>
      </form>

      <ComparisonHistory history={history} currentId={comparison?.comparisonId ?? null} onOpen={(id) => void controller.openComparison(id)} />

      {error && (
        <p className="cmp__error cmp__banner" role="alert">
          {error}
        </p>
      )}
      {progress && <ProgressBar {...progress} />}

      {!comparison && !progress && (
        <p className="empty cmp__empty">{traces.length === 0 ? 'Import a trace to compare strategies on it.' : 'Pick traces, strategies and a budget, then run the comparison.'}</p>
      )}

      {comparison && removed.length > 0 && (
        <p className="cmp__note cmp__removed" role="status">
          {removed.map((t) => t.name).join(', ')} {removed.length === 1 ? 'has' : 'have'} been removed from the catalog; the results below are as this comparison saved them, and it cannot be run again on {removed.length === 1 ? 'it' : 'them'}.
        </p>
      )}

      {comparison && comparison.errors.length > 0 && (
        <div className="cmp__error cmp__banner" role="alert">
          <strong>Some replays failed:</strong>
          <ul>
            {comparison.errors.map((e) => (
              <li key={`${e.traceId}/${e.strategy}/${e.budget ?? ''}`}>
                {multiTrace ? `${nameOf(e.traceId)}, ` : ''}
                {STRATEGY_LABEL[e.strategy]}
                {budgetsRun.length > 1 && e.budget ? ` at ${e.budget.toLocaleString('en-US')}` : ''}: {e.error}
              </li>
            ))}
          </ul>
        </div>
      )}

      {finished && results.length > 0 && (
        <div className="cmp__results" aria-label="Comparison results" role="region">
          <div className="cmp__exports">
            <span className="cmp__note">
              {comparison.comparisonId}
              {comparison.status === 'cancelled' ? ' (cancelled: the replays that had finished)' : ''} · {budgetsRun.length > 1 ? 'budgets' : 'budget'} {budgetsRun.map((b) => b.toLocaleString('en-US')).join(', ')} · priced by the {comparison.provider} cache model
              {comparison.model ? ` as ${comparison.model}` : ''}
              {comparison.window ? ` · window ${comparison.window.toLocaleString('en-US')} tokens` : ''}
            </span>
            <button type="button" className="cmp__btn" onClick={() => downloadText(comparisonCsv(comparison, traces), exportName(comparison, 'csv'), 'text/csv')}>
              Export CSV
            </button>
            <button type="button" className="cmp__btn" onClick={() => downloadText(comparisonJson(comparison, traces), exportName(comparison, 'json'), 'application/json')}>
              Export JSON
            </button>
          </div>
          {chart && chartMulti && (
            <div className="cmp__row">
              <label className="cmp__label" htmlFor="cmp-chart-trace">
                Chart trace
              </label>
              <select id="cmp-chart-trace" className="cmp__select cmp__select--narrow" value={chart.traceId} onChange={(e) => dispatch({ type: 'compare.chartTrace', traceId: e.target.value })}>
                {chart.traceIds.map((id) => (
                  <option key={id} value={id}>
                    {nameOf(id)}
                  </option>
                ))}
              </select>
              <span className="cmp__note">The charts show one trace at a time; the totals below cover every trace.</span>
            </div>
          )}
          {chart && chartBudgets && (
            <div className="cmp__row">
              <label className="cmp__label" htmlFor="cmp-chart-budget">
                Chart budget
              </label>
              <select id="cmp-chart-budget" className="cmp__select cmp__select--narrow" value={chart.budget ?? ''} onChange={(e) => dispatch({ type: 'compare.chartBudget', budget: Number(e.target.value) })}>
                {chart.budgets.map((b) => (
                  <option key={b} value={b}>
                    {b.toLocaleString('en-US')} tokens
                  </option>
                ))}
              </select>
              <span className="cmp__note">The per-step and per-strategy charts show one budget (the baselines beside it); cost against recall shows every budget.</span>
            </div>
          )}
          {chart && (
            <div className="cmp__charts" data-trace={chart.traceId}>
              <CumulativeChart title="Cumulative prompt tokens per step" exportTitle={pngTitle('Cumulative prompt tokens per step')} fileName={`${fileBase}-prompt-tokens.png`} rows={chart.prompt} strategies={chart.strategies} yLabel="prompt tokens" />
              <CumulativeChart title="Cumulative uncached tokens per step" exportTitle={pngTitle('Cumulative uncached tokens per step')} fileName={`${fileBase}-uncached-tokens.png`} rows={chart.uncached} strategies={chart.strategies} yLabel="uncached tokens" />
              <CostChart results={chart.results} exportTitle={pngTitle('Prompt cost (US dollars at list price)')} fileName={`${fileBase}-cost-usd.png`} />
              <RatesChart results={chart.results} exportTitle={pngTitle('Hit rate · prefix reuse · recall')} fileName={`${fileBase}-rates.png`} />
              <CostRecallChart results={chart.allBudgets} exportTitle={pngTitle('Cost against recall (top left is best)', false)} fileName={`${fileBase}-cost-recall.png`} />
            </div>
          )}
          <TotalsTable results={results} traces={traces} traceNames={names} notes={comparison.notes} />
          {comparison.recorded.length > 0 && <RecordedTable recorded={comparison.recorded} traces={traces} />}
        </div>
      )}
    </section>
  );
}
