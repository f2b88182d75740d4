import type { LiveSessionDetailDto } from '../../../engine/contract';
import { percent, usd } from '../../components/format';
import { sessionTotals, stepMatchedChange, type SessionTotals, type StepMatchedChange } from '../../store/sessions/sessionFigures';
import type { SeriesNames } from './SessionCharts';

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const pct = (n: number | null) => (n === null ? '—' : percent(n));
const DASH = '—';
const signed = (r: number | null) => (r === null ? DASH : `${r > 0 ? '+' : r < 0 ? '−' : '±'}${percent(Math.abs(r))}`);

interface Row {
  key: string;
  label: string;
  real: string;
  strata: string;
  /** Strata relative to the recording over the steps both hold, for the token and cost figures. */
  change: string;
}

function rows(real: SessionTotals, strata: SessionTotals | null, change: StepMatchedChange): Row[] {
  const s = <T,>(pick: (t: SessionTotals) => T, show: (v: T) => string) => (strata ? show(pick(strata)) : 'replaying…');
  return [
    { key: 'steps', label: 'steps', real: int(real.steps), strata: s((t) => t.steps, int), change: change.steps > 0 ? `${change.steps} compared` : DASH },
    { key: 'prompt', label: 'prompt tokens', real: int(real.promptTokens), strata: s((t) => t.promptTokens, int), change: signed(change.prompt) },
    { key: 'uncached', label: 'uncached input tokens', real: int(real.uncached), strata: s((t) => t.uncached, int), change: signed(change.uncached) },
    { key: 'cost', label: 'prompt cost (USD, list price)', real: usd(real.promptUsd), strata: s((t) => t.promptUsd, usd), change: signed(change.promptUsd) },
    { key: 'hit', label: 'cache hit rate', real: percent(real.hitRate), strata: s((t) => t.hitRate, percent), change: DASH },
    { key: 'reuse', label: 'prefix reuse', real: DASH, strata: s((t) => t.prefixReuse, pct), change: DASH },
    { key: 'recall', label: 'needed-reference recall', real: DASH, strata: s((t) => t.neededReferenceRecall, pct), change: DASH },
    { key: 'generation', label: 'generation Strata would be in', real: DASH, strata: s((t) => t.generation, (g) => (g === null ? DASH : String(g))), change: DASH },
    { key: 'refreshes', label: 'refreshes', real: DASH, strata: s((t) => t.refreshes, (n) => (n === null ? DASH : String(n))), change: DASH },
  ];
}

/** The session's totals: what the provider billed beside what Strata's replay would have sent. */
export function SessionFiguresTable({ detail, names }: { detail: LiveSessionDetailDto; names: SeriesNames }) {
  const { session } = detail;
  const totals = sessionTotals(session);
  const change = stepMatchedChange(detail);
  const trailing = session.shadow !== null && session.shadow.replayedEvents < session.events;
  return (
    <div className="cmp__table-wrap" tabIndex={0} role="group" aria-label="Figures table (scrolls sideways when narrow)">
      <table className="cmp__table session-cmp__table" aria-label={`Figures of ${session.sessionId}`}>
        <thead>
          <tr>
            <th scope="col">figure</th>
            <th scope="col">{names.real}</th>
            <th scope="col">{names.strata}</th>
            <th scope="col">Strata vs recorded, same steps</th>
          </tr>
        </thead>
        <tbody>
          {rows(totals.real, totals.strata, change).map((r) => (
            <tr key={r.key} data-figure={r.key}>
              <th scope="row">{r.label}</th>
              <td>{r.real}</td>
              <td>{r.strata}</td>
              <td>{r.change}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {trailing && session.shadow && (
        <p className="cmp__note" role="status">
          Strata's replay trails the file ({session.shadow.replayedEvents.toLocaleString('en-US')} of {session.events.toLocaleString('en-US')} events): its totals cover fewer steps; the change column compares only the steps both hold.
        </p>
      )}
      <p className="cmp__note">
        Prompt cost is in US dollars at the model's list price (uncached input, cache reads and cache writes as the provider bills them), for both columns: the recorded column prices the tokens the
        provider billed, Strata's those its cache model priced; “—” when the model has no list price. {session.priceNote}. Prefix reuse, recall, generation and refreshes exist only for Strata's replay.
      </p>
    </div>
  );
}
