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
  const top = 28;
  const bottom = 30;
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(width * scale);
  canvas.height = Math.ceil((height + top + bottom) * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('This browser cannot draw on a canvas.');
  ctx.scale(scale, scale);
  ctx.fillStyle = css('--panel', '#161a21');
  ctx.fillRect(0, 0, width, height + top + bottom);
  const font = getComputedStyle(root).fontFamily || 'sans-serif';
  ctx.fillStyle = css('--text', '#d8dee9');
  ctx.font = `600 13px ${font}`;
  ctx.textBaseline = 'middle';
  ctx.fillText(o.title, 12, top / 2);
  ctx.drawImage(image, 0, top, width, height);
  ctx.font = `12px ${font}`;
  let x = 12;
  const y = top + height + bottom / 2;
  for (const entry of o.legend) {
    ctx.fillStyle = entry.color;
    ctx.fillRect(x, y - 2, 14, 4);
    x += 20;
    ctx.fillStyle = css('--text', '#d8dee9');
    ctx.fillText(entry.label, x, y);
    x += ctx.measureText(entry.label).width + 18;
  }
  return canvas.toDataURL('image/png');
}
