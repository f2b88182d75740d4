import type { GenerationDto } from '../../../engine/contract';

/** One line of the context's category breakdown, like Claude Code's `/context`. */
export interface ContextCategory {
  id: string;
  label: string;
  tokens: number;
  /** Share of the budget, 0..1 (over 1 only when the context overflows). */
  share: number;
}

const CLASS_LABELS: Record<string, string> = {
  task_state: 'Task state (objective, constraints, failures)',
  finding: 'Findings',
  project_memory: 'Project memory',
  ephemeral: 'Tool output and code reads',
  raw_history: 'Raw history',
};

/**
 * What the agent's context is made of, as shares of its budget: the role instructions (L0), the
 * included items by information class, the turn's input and status (L3), the framing between them,
 * and the free space left. The lines add up to the budget (or to the tokens when over budget).
 */
export function contextCategories(g: Pick<GenerationDto, 'budget' | 'tokens' | 'layerTokens' | 'included'>): ContextCategory[] {
  const byClass = new Map<string, number>();
  let itemTokens = 0;
  for (const e of g.included) {
    if (e.layer === 'L0' || e.layer === 'L3') continue;
    byClass.set(e.item.class, (byClass.get(e.item.class) ?? 0) + e.tokens);
    itemTokens += e.tokens;
  }
  const scale = Math.max(g.budget, g.tokens, 1);
  const line = (id: string, label: string, tokens: number): ContextCategory => ({ id, label, tokens, share: tokens / scale });
  const out: ContextCategory[] = [line('instructions', 'Role instructions (L0)', g.layerTokens.L0)];
  for (const [cls, label] of Object.entries(CLASS_LABELS)) {
    const t = byClass.get(cls);
    if (t) out.push(line(cls, label, t));
  }
  out.push(line('input', 'Turn input and status (L3)', g.layerTokens.L3));
  // Headings and separators of the layers: what the prompt spends beyond its items.
  const framing = g.tokens - g.layerTokens.L0 - g.layerTokens.L3 - itemTokens;
  if (framing > 0) out.push(line('framing', 'Layer framing', framing));
  out.push(line('free', 'Free space', Math.max(0, g.budget - g.tokens)));
  return out.filter((c) => c.tokens > 0 || c.id === 'free');
}
