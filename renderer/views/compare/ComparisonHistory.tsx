import type { ComparisonSummaryDto } from '../../../engine/contract';
import { localTimeFormat } from '../../components/format';
import { STRATEGY_LABEL } from './strategies';

const when = localTimeFormat({ month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hour12: false });

/** One history line: when, what, at which budgets, how it ended, and which of its traces are gone. */
function summaryText(c: ComparisonSummaryDto): string {
  const traces = c.traces.map((t) => (t.removed ? `${t.name} (removed)` : t.name)).join(', ');
  const status = c.status === 'running' ? `running, ${c.progress.done} of ${c.progress.total}` : c.status;
  return `${c.comparisonId} · ${when(new Date(c.startedAt))} · ${traces} · ${c.strategies.map((s) => STRATEGY_LABEL[s]).join(', ')} · ${c.budgets.map((b) => b.toLocaleString('en-US')).join(', ')} tokens · ${status}`;
}

/** The workspace's comparisons, newest first, each to reopen as it was saved (issue 22 item 14). */
export function ComparisonHistory({ history, currentId, onOpen }: { history: readonly ComparisonSummaryDto[]; currentId: string | null; onOpen(id: string): void }) {
  if (history.length === 0) return null;
  return (
    <details className="cmp__box" open>
      <summary className="cmp__label">Past comparisons ({history.length})</summary>
      <ul className="cmp__history" aria-label="Past comparisons">
        {history.map((c) => {
          const text = summaryText(c);
          const current = c.comparisonId === currentId;
          return (
            <li key={c.comparisonId} aria-current={current || undefined}>
              <span className="cmp__history-text" title={text}>
                {text}
              </span>
              <button type="button" className="cmp__btn cmp__btn--small" disabled={current} onClick={() => onOpen(c.comparisonId)} aria-label={`Open ${c.comparisonId}`}>
                {current ? 'Shown' : 'Open'}
              </button>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
