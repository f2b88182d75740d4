/**
 * Which cache lifetime a replay's breakpoints ask for (`[replay-ttl]`): the one the recording used,
 * unless an option says otherwise, else Anthropic's default of 5 minutes. Every row of a comparison
 * of a trace is priced with the same lifetime, and every output says which and why. Pure.
 */
import type { CacheTtl } from '../../providers/cacheModel';
import type { TraceEvent } from '../TraceEvent';

/** Where a replay's TTL came from. */
type TtlSource = 'recording' | 'option' | 'default';

export interface TtlChoice {
  ttl: CacheTtl;
  source: TtlSource;
}

const DEFAULT_CACHE_TTL: CacheTtl = '5m';

/**
 * The lifetime the recording's main agent wrote its cache with: `'1h'` when more than half of the
 * tokens its usage events split by lifetime (`cacheWrite1h`) were written for an hour, else `'5m'`;
 * undefined when no usage event splits its writes, or none wrote anything.
 */
export function recordedTtl(events: readonly TraceEvent[]): CacheTtl | undefined {
  let written = 0;
  let oneHour = 0;
  for (const e of events) {
    if (e.type !== 'usage' || e.agentId !== undefined || e.cacheWrite1h === undefined) continue;
    written += e.cacheWrite;
    oneHour += Math.min(e.cacheWrite1h, e.cacheWrite);
  }
  if (written === 0) return undefined;
  return oneHour * 2 > written ? '1h' : '5m';
}

/** The TTL to replay `events` with: `option` when given, else the recording's, else the default. */
export function chooseTtl(events: readonly TraceEvent[], option?: CacheTtl): TtlChoice {
  if (option) return { ttl: option, source: 'option' };
  const recorded = recordedTtl(events);
  return recorded ? { ttl: recorded, source: 'recording' } : { ttl: DEFAULT_CACHE_TTL, source: 'default' };
}

/** `1h: from the recording`, `5m: default`, `1h: --ttl` (`optionName` names the option where it was set). */
export function ttlLabel(choice: TtlChoice, optionName = '--ttl'): string {
  const why = choice.source === 'recording' ? 'from the recording' : choice.source === 'option' ? optionName : 'default';
  return `${choice.ttl}: ${why}`;
}
