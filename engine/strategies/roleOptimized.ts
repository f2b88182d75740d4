import type { Strategy } from './Strategy';

/** Per-role cuts: the primary omits raw code dumps; probes omit reports unrelated to their task. */
export const roleOptimized: Strategy = {
  name: 'role_optimized',
  budgetFactor: 1,
  packRatio: 0.6,
  order: 'score',
  exclude: (item, ctx) => {
    if (item.class === 'raw_history') return 'strategy role_optimized: raw history left out';
    if (ctx.role === 'primary' && (item.kind === 'tool_output' || (item.kind === 'code' && item.provenance.source === 'repository_source'))) {
      return 'strategy role_optimized: the primary omits raw code and tool dumps';
    }
    if (ctx.role === 'probe' && item.kind === 'report') {
      const related = item.provenance.taskId === ctx.taskId || (ctx.dependencyTaskIds ?? []).includes(item.provenance.taskId);
      if (!related) return 'strategy role_optimized: probes omit reports unrelated to their task';
    }
    return undefined;
  },
};
