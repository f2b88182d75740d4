import { COMPARISON_BUDGET, COMPARISON_MAX_BUDGETS } from '../../../engine/shared/limits';

/**
 * The budgets typed in the Compare form: one whole number, or several separated by commas or
 * spaces (`32000, 64000`), each within the contract's bounds, none repeated, at most
 * COMPARISON_MAX_BUDGETS; null when the text is not that. Thousands separators are not read (a
 * comma separates budgets).
 */
export function parseBudgets(text: string): number[] | null {
  const parts = text.split(/[\s,;]+/).filter((p) => p !== '');
  if (parts.length === 0 || parts.length > COMPARISON_MAX_BUDGETS) return null;
  if (!parts.every((p) => /^\d+$/.test(p))) return null;
  const budgets = parts.map(Number);
  if (budgets.some((b) => b < COMPARISON_BUDGET.min || b > COMPARISON_BUDGET.max)) return null;
  return new Set(budgets).size === budgets.length ? budgets : null;
}
