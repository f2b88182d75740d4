/** The look shared by the recharts figures outside the Charts view (Compare, Real vs Strata): theme colours from the CSS variables. */
export const chartAxis = { stroke: 'var(--line)', tick: { fill: 'var(--muted)', fontSize: 11 } };
export const chartTooltip = {
  contentStyle: { background: 'var(--panel-2)', border: '1px solid var(--line)', color: 'var(--text)', fontSize: 12 },
  labelStyle: { color: 'var(--muted)' },
  itemStyle: { color: 'var(--text)' },
};
export const chartLegendStyle = { color: 'var(--text)', fontSize: 12, paddingBottom: 4 };
