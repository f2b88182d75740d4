/** Whole percent, e.g. 0.934 -> "93%". */
export const percent = (ratio: number): string => `${Math.round(ratio * 100)}%`;

/** Compact token count: 950 -> "950", 12_400 -> "12.4k", 1_250_000 -> "1.25M". */
export function tokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, '')}k`;
  return `${(n / 1_000_000).toFixed(2).replace(/\.?0+$/, '')}M`;
}

/** Local time of day for a log line. */
export const timeOfDay = (iso: string): string => new Date(iso).toLocaleTimeString([], { hour12: false });
