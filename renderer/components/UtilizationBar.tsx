import { budgetLabel } from '../store/agents/budgets';
import { percent, tokens } from './format';

/** Tokens in context against the budget; over budget is marked, never clipped silently. */
export function UtilizationBar({ used, budget, compact = false }: { used: number; budget: number; compact?: boolean }) {
  const ratio = budget > 0 ? used / budget : 0;
  const over = ratio > 1;
  return (
    <span
      className={`util${compact ? ' util--compact' : ''}${over ? ' util--over' : ''}`}
      role="meter"
      aria-label="context utilization"
      aria-valuemin={0}
      aria-valuemax={budget}
      aria-valuenow={used}
      title={`${tokens(used)} of ${tokens(budget)} tokens, ${budgetLabel('engine')}${over ? ' (over budget)' : ''}`}
    >
      <span className="util__track">
        <span className="util__fill" style={{ width: `${Math.min(ratio, 1) * 100}%` }} />
      </span>
      <span className="util__label">{percent(ratio)}</span>
    </span>
  );
}
