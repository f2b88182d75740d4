import type { GatewayCallDto } from '../../../engine/contract';
import { localTimeFormat } from '../../components/format';

const clock = localTimeFormat({ hour12: false });

/** Local time of day of an epoch-milliseconds instant. */
export const timeAt = (ms: number): string => clock(new Date(ms));

/** Milliseconds for a person: "840 ms", "2.4 s"; "—" when not known yet. */
export const millis = (ms: number | undefined): string => (ms === undefined ? '—' : ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** A whole number with thousands separators. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** A call's outcome in words: "in flight", "200", "429: rate limited…". */
export function callOutcome(c: GatewayCallDto): string {
  if (c.error !== undefined) return c.status !== undefined ? `${c.status}: ${c.error}` : c.error;
  if (c.status === undefined) return 'in flight';
  return String(c.status);
}

/** Where the cache broke, with the provider's own reason when it gave one. */
export const cacheBreakText = (b: GatewayCallDto['cacheBreak']): string => (b.providerReason ? `${b.at} (provider: ${b.providerReason})` : b.at);

/** The text pretty-printed when it is JSON, else as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
