import { useRef, useState, type ReactNode } from 'react';
import { chartToPng, downloadDataUrl, resolveCssVars, type LegendEntry } from './download';

/** A titled chart with an "Export PNG" button that saves its SVG (with title, or `exportTitle` when given, and legend) as an image. */
export function ChartFrame({ title, exportTitle, fileName, legend, children }: { title: string; exportTitle?: string; fileName: string; legend: LegendEntry[]; children: ReactNode }) {
  const ref = useRef<HTMLElement>(null);
  const [error, setError] = useState<string | null>(null);
  const exportPng = async () => {
    setError(null);
    const svg = ref.current?.querySelector<SVGSVGElement>('.recharts-wrapper > svg.recharts-surface');
    if (!svg) return setError('The chart is not drawn yet.');
    try {
      const resolved = legend.map((l) => ({ label: l.label, color: resolveCssVars(l.color) }));
      downloadDataUrl(await chartToPng(svg, { title: exportTitle ?? title, legend: resolved }), fileName);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  const id = `chart-${fileName.replace(/[^a-z0-9]+/gi, '-')}`;
  return (
    <figure className="cmp__chart" ref={ref} aria-labelledby={id}>
      <figcaption className="cmp__chart-head">
        <span id={id} className="cmp__chart-title">
          {title}
        </span>
        <button type="button" className="cmp__btn cmp__btn--small" onClick={() => void exportPng()} aria-label={`Export ${title} as PNG`}>
          PNG
        </button>
      </figcaption>
      <div className="cmp__chart-body">{children}</div>
      {error && (
        <p className="cmp__error" role="alert">
          {error}
        </p>
      )}
    </figure>
  );
}
