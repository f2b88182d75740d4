import { budgetLabel } from '../store/agents/budgets';
import { percent, tokens } from './format';

/** Tokens in context against the budget; over budget is marked, never clipped silently. `label` says whose context against which window. */
export function UtilizationBar({ used, budget, compact = false, label }: { used: number; budget: number; compact?: boolean; label?: string }) {
  const ratio = budget > 0 ? used / budget : 0;
  const over = ratio > 1;
  return (
    <span
      className={`util${compact ? ' util--compact' : ''}${over ? ' util--over' : ''}`}
      role="meter"
      aria-label={label ?? 'context utilization'}
      aria-valuemin={0}
      aria-valuemax={budget}
      aria-valuenow={used}
      title={`${label ? `${label}: ` : ''}${tokens(used)} of ${tokens(budget)} tokens${label ? '' : `, ${budgetLabel('engine')}`}${over ? ' (over budget)' : ''}`}
    >
      <span className="util__track">
        <span className="util__fill" style={{ width: `${Math.min(ratio, 1) * 100}%` }} />
      </span>
      <span className="util__label">{percent(ratio)}</span>
    </span>
  );
}
