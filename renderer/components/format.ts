/** Whole percent, e.g. 0.934 -> "93%". */
export const percent = (ratio: number): string => `${Math.round(ratio * 100)}%`;

/** Compact token count: 950 -> "950", 1_234 -> "1.2k", 12_400 -> "12k", 999_600 -> "1M", 1_250_000 -> "1.25M". */
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  // Round first, then pick the unit, so 999_600 becomes "1M" and not "1000k".
  const k = Number((n / 1000).toFixed(n < 10_000 ? 1 : 0));
  if (k < 1000) return `${k}k`;
  return `${Number((n / 1_000_000).toFixed(2))}M`;
}

/**
 * A `toLocaleTimeString` with fixed options, built once. `toLocaleTimeString` makes a new
 * `Intl.DateTimeFormat` per call (~70 µs); the log strip and chart axes format hundreds of times a
 * second under load. Same output, including "Invalid Date" where the formatter itself would throw.
 */
export function localTimeFormat(options: Intl.DateTimeFormatOptions): (date: Date) => string {
  const time = options.hour === undefined && options.minute === undefined && options.second === undefined ? { hour: 'numeric', minute: 'numeric', second: 'numeric' } as const : {};
  const format = new Intl.DateTimeFormat([], { ...time, ...options });
  return (date) => (Number.isNaN(date.getTime()) ? 'Invalid Date' : format.format(date));
}

const logTime = localTimeFormat({ hour12: false });

/** Local time of day for a log line. */
export const timeOfDay = (iso: string): string => logTime(new Date(iso));

/** File size for a person: 980 B, 12 KB, 3.4 MB (binary units). */
export function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The last part of a host path, whichever separator the host's system uses. */
export const baseName = (path: string): string => path.split(/[\\/]/).pop() || path;

/** US dollars: "$12.34" from a dollar up, "$0.0123" below, "−$0.0022" for a negative amount (a saving that cost); "—" for none (no list price). Sums' float noise is rounded away first. */
export function usd(dollars: number | null): string {
  if (dollars === null) return '—';
  const x = Number(dollars.toPrecision(12));
  const a = Math.abs(x);
  const text = `$${a >= 1 ? a.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }) : a.toFixed(4)}`;
  return x < 0 && text !== '$0.0000' ? `\u2212${text}` : text;
}

/** A replay's cache TTL and why, as the CLI says it: "1h: from the recording", "5m: default", "1h: chosen". */
export const ttlText = (c: { ttl: string; source: 'recording' | 'option' | 'default' }): string => `${c.ttl}: ${c.source === 'recording' ? 'from the recording' : c.source === 'option' ? 'chosen' : 'default'}`;

/** A replay's context window and where it came from: "200,000: model table", "258,400: from the recording", "150,000: chosen", "none known". */
export const windowText = (w: { tokens: number | null; source: 'option' | 'recording' | 'table' | 'none' } | null): string =>
  w === null ? '—' : w.tokens === null ? 'none known' : `${w.tokens.toLocaleString('en-US')}: ${w.source === 'recording' ? 'from the recording' : w.source === 'option' ? 'chosen' : 'model table'}`;
