/** Offer `data` as a download named `name` through a temporary Blob link. */
function downloadBlob(data: Blob, name: string, doc: Document = document): void {
  const url = URL.createObjectURL(data);
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  doc.body.appendChild(a);
  a.click();
  a.remove();
  // Revoke after the click has been handled.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const downloadText = (text: string, name: string, type: string): void => downloadBlob(new Blob([text], { type }), name);

/** Offer a data: URL (a canvas's PNG) as a download. */
export function downloadDataUrl(url: string, name: string, doc: Document = document): void {
  const a = doc.createElement('a');
  a.href = url;
  a.download = name;
  a.style.display = 'none';
  doc.body.appendChild(a);
  a.click();
  a.remove();
}

/** Replace each `var(--name)` in `text` with the variable's current value on the root element. */
export function resolveCssVars(text: string, root: Element = document.documentElement): string {
  const style = getComputedStyle(root);
  return text.replace(/var\((--[A-Za-z0-9-]+)\)/g, (whole, name: string) => style.getPropertyValue(name).trim() || whole);
}

export interface LegendEntry {
  label: string;
  color: string;
}

/**
 * The chart's SVG as a PNG data URL: the SVG is serialized with its CSS variables resolved, drawn
 * on a canvas over the panel colour, with the title above and the legend (HTML in recharts, so not in
 * the SVG) drawn below it.
 */
export async function chartToPng(svg: SVGSVGElement, o: { title: string; legend: LegendEntry[]; scale?: number }): Promise<string> {
  const root = document.documentElement;
  const css = (name: string, fallback: string) => getComputedStyle(root).getPropertyValue(name).trim() || fallback;
  const { width, height } = svg.getBoundingClientRect();
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  // The page's font, which the stand-alone image would not inherit.
  clone.setAttribute('font-family', getComputedStyle(svg).fontFamily || 'sans-serif');
  const text = resolveCssVars(new XMLSerializer().serializeToString(clone), root);
  const image = new Image();
  const loaded = new Promise<void>((resolve, reject) => {
    image.onload = () => resolve();
    image.onerror = () => reject(new Error('The chart could not be drawn as an image.'));
  });
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  await loaded;

  const scale = o.scale ?? 2;
  const font = getComputedStyle(root).fontFamily || 'sans-serif';
  const canvas = document.createElement('canvas');
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw on a canvas.');
  // Lay out first, so the whole figure fits: the title wraps, the legend flows onto more rows.
  const layout = pngLayout(ctx, { width, title: o.title, legend: o.legend, font });
  const total = layout.top + height + layout.bottom;
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil(total * scale);
  ctx.scale(scale, scale);
  ctx.fillStyle = css('--panel', '#161a21');
  ctx.fillRect(0, 0, width, total);
  ctx.fillStyle = css('--text', '#d8dee9');
  ctx.font = TITLE_FONT(font);
  ctx.textBaseline = 'middle';
  layout.titleLines.forEach((line, i) => ctx.fillText(line, PAD, PAD + LINE / 2 + i * LINE));
  ctx.drawImage(image, 0, layout.top, width, height);
  ctx.font = LEGEND_FONT(font);
  for (const e of layout.legend) {
    const y = layout.top + height + PAD / 2 + LINE / 2 + e.row * LINE;
    ctx.fillStyle = e.color;
    ctx.fillRect(e.x, y - 2, SWATCH, 4);
    ctx.fillStyle = css('--text', '#d8dee9');
    ctx.fillText(e.label, e.x + SWATCH + 6, y);
  }
  return canvas.toDataURL('image/png');
}

const PAD = 12;
const LINE = 18;
const SWATCH = 14;
const TITLE_FONT = (font: string) => `600 13px ${font}`;
const LEGEND_FONT = (font: string) => `12px ${font}`;

/** What `pngLayout` measures with: a canvas context's font and text width. */
export interface TextMeasure {
  font: string;
  measureText(text: string): { width: number };
}

/**
 * Where the PNG's title and legend go (issue 22 item 15): the title wrapped into lines that fit
 * `width`, the legend entries flowed into rows, and the space above and below the chart they take,
 * so nothing is cut however narrow the chart or long its title and legend.
 */
export function pngLayout(ctx: TextMeasure, o: { width: number; title: string; legend: readonly LegendEntry[]; font: string }) {
  const room = Math.max(40, o.width - 2 * PAD);
  ctx.font = TITLE_FONT(o.font);
  const titleLines: string[] = [];
  for (const word of o.title.split(/\s+/).filter(Boolean)) {
    const last = titleLines.at(-1);
    if (last !== undefined && ctx.measureText(`${last} ${word}`).width <= room) titleLines[titleLines.length - 1] = `${last} ${word}`;
    else titleLines.push(word);
  }
  ctx.font = LEGEND_FONT(o.font);
  const legend: (LegendEntry & { x: number; row: number })[] = [];
  let x = PAD;
  let row = 0;
  for (const entry of o.legend) {
    const w = SWATCH + 6 + ctx.measureText(entry.label).width;
    if (x > PAD && x + w > o.width - PAD) {
      row++;
      x = PAD;
    }
    legend.push({ ...entry, x, row });
    x += w + 18;
  }
  const rows = o.legend.length === 0 ? 0 : row + 1;
  return { titleLines, legend, top: PAD + Math.max(1, titleLines.length) * LINE + PAD / 2, bottom: rows * LINE + PAD };
}
