import type { InfoClass } from '../items/ContextItem';

/**
 * Limits on what a generation may contain (spec `BuildRequest.Scope`). Fixed within a generation;
 * a change takes effect at the next boundary (`[scope-fixed]`).
 */
export interface Scope {
  /** Only these classes may enter (absent: every class the strategy allows). */
  classes?: InfoClass[];
  /** Leave project memory out entirely. */
  excludeProjectMemory?: boolean;
  /** Parent reports only from these task ids (absent: no restriction). */
  dependencyTaskIds?: string[];
  /** Clip non-mandatory items larger than this to a head/tail excerpt (absent: no clipping). */
  maxItemTokens?: number;
}

/** Why `scope` keeps an item out, or undefined when it may enter. Pinned/mandatory items always may. */
export function scopeExclusion(
  scope: Scope,
  item: { class: InfoClass; kind: string; pinned: boolean; mandatory: boolean; provenance: { source: string; taskId: string } },
): string | undefined {
  if (item.pinned || item.mandatory) return undefined;
  if (scope.classes && !scope.classes.includes(item.class)) return `scope: class ${item.class} is not in this agent's scope`;
  if (scope.excludeProjectMemory && (item.class === 'project_memory' || item.provenance.source === 'recalled_memory')) {
    return 'scope: project memory is excluded for this agent';
  }
  if (scope.dependencyTaskIds && item.provenance.source === 'parent_report' && !scope.dependencyTaskIds.includes(item.provenance.taskId)) {
    return `scope: report of task ${item.provenance.taskId}, not a dependency of this task`;
  }
  return undefined;
}

/** Why an item addressed to one agent (recalled memory) stays out of another's context. */
export function audienceExclusion(item: { audience?: string }, agentId: string): string | undefined {
  return item.audience !== undefined && item.audience !== agentId ? `addressed to ${item.audience} only` : undefined;
}
