import { localTimeFormat, tokens } from '../components/format';

const tickTime = localTimeFormat({ hour12: false, hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Time of day of a point on the time axis (24-hour, local). */
export const clockTick = (ms: number): string => tickTime(new Date(ms));

/** A 0–1 ratio as a whole percent for axes and tooltips. */
export const pct = (v: unknown): string => (typeof v === 'number' ? `${Math.round(v * 100)}%` : '—');

/** A token count for axes and tooltips. */
export const tok = (v: unknown): string => (typeof v === 'number' ? tokens(v) : '—');

/** Shared look of every chart: colours are the app's CSS variables, so themes apply. */
export const axisStyle = { stroke: 'var(--muted)', fontSize: 11 } as const;
export const gridStroke = 'var(--line)';
export const tooltipStyle = {
  contentStyle: { background: 'var(--panel-2)', border: '1px solid var(--line)', color: 'var(--text)', fontSize: 12 },
  labelStyle: { color: 'var(--text)' },
  itemStyle: { padding: 0 },
} as const;
export const chartMargin = { top: 14, right: 18, bottom: 18, left: 8 } as const;
export const legendStyle = { fontSize: 12, color: 'var(--text)', paddingTop: 4 } as const;

/**
 * The label of a point in a tooltip: a call's time, agent, turn and generation; a slice of the
 * all-agents charts' span, calls and agents.
 */
export function pointLabel(label: unknown, payload: readonly { payload?: unknown }[] | undefined): string {
  const p = payload?.[0]?.payload as { agentId?: string; turn?: number; generation?: number; from?: number; to?: number; calls?: number; agents?: number } | undefined;
  if (p?.calls !== undefined && p.from !== undefined && p.to !== undefined) {
    const span = `${clockTick(p.from)}–${clockTick(p.to + 1)}`;
    return p.calls === 0 ? `${span} · no calls` : `${span} · ${p.calls} call${p.calls === 1 ? '' : 's'} of ${p.agents ?? '?'} agent${p.agents === 1 ? '' : 's'}`;
  }
  const when = typeof label === 'number' ? clockTick(label) : String(label ?? '');
  if (!p?.agentId) return when;
  return `${when} · ${p.agentId} · turn ${p.turn ?? '?'}${p.generation !== undefined ? ` · gen ${p.generation}` : ''}`;
}
