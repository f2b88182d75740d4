import { memo, useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import type { GenerationDto } from '../../../engine/contract';
import { tokens } from '../../components/format';
import { compositionByClass } from '../../store/generations/generationsSelectors';
import { useWidth } from './useWidth';

/** Tokens per information class, included and dropped, for one generation; redrawn only when the generation changes. */
export const CompositionChart = memo(function CompositionChart({ generation }: { generation: GenerationDto }) {
  const data = useMemo(() => compositionByClass(generation), [generation]);
  const [ref, width] = useWidth<HTMLDivElement>(560);
  return (
    <figure className="composition" aria-label="Composition by class">
      <figcaption className="composition__title">Composition by class (tokens)</figcaption>
      <div ref={ref} className="composition__plot">
        {data.length === 0 ? (
          <p className="empty">Nothing included or dropped.</p>
        ) : (
          <BarChart width={Math.max(280, width)} height={210} data={data} margin={{ top: 8, right: 16, bottom: 22, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--line)" />
            <XAxis dataKey="class" stroke="var(--muted)" tick={{ fill: 'var(--muted)', fontSize: 11 }} label={{ value: 'class', position: 'insideBottom', offset: -14, fill: 'var(--muted)', fontSize: 11 }} />
            <YAxis stroke="var(--muted)" tick={{ fill: 'var(--muted)', fontSize: 11 }} tickFormatter={(v: number) => tokens(v)} width={48} label={{ value: 'tokens', angle: -90, position: 'insideLeft', fill: 'var(--muted)', fontSize: 11 }} />
            <Tooltip contentStyle={{ background: 'var(--panel)', border: '1px solid var(--line)', color: 'var(--text)' }} formatter={(v) => tokens(Number(v))} />
            <Legend verticalAlign="top" height={24} wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="included" name="included" fill="var(--accent)" isAnimationActive={false} />
            <Bar dataKey="dropped" name="dropped" fill="var(--warn)" isAnimationActive={false} />
          </BarChart>
        )}
      </div>
    </figure>
  );
});
