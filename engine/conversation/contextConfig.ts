import { isConfigError, type ConfigError } from '../config/ConfigError';
import { SectionReader } from '../config/sectionReader';
import type { StrataToml } from '../config/strataToml';

/** How a conversation that outgrows its budget continues (context-manager-issue.md). */
type ContextStrategy = 'truncate' | 'compress';

/** The `[context]` section of `strata.toml`, in the engine's names. */
export interface ContextConfig {
  strategy: ContextStrategy;
  /** Token budget of one conversation's context. */
  maxTokens: number;
  /** Newest turns kept as original messages whatever the strategy. */
  preserveRecentTurns: number;
  /** Cap of the one generated summary; always below `maxTokens`. */
  summaryMaxTokens: number;
  /** Refresh on indicators, not only on a provider context-limit error (off by default). */
  autoRefresh: boolean;
}

/** The values used for a missing file, a missing section or a missing key. */
export const DEFAULT_CONTEXT_CONFIG: Readonly<ContextConfig> = Object.freeze({
  strategy: 'truncate',
  maxTokens: 32000,
  preserveRecentTurns: 8,
  summaryMaxTokens: 2000,
  autoRefresh: false,
});

const KEYS = ['strategy', 'max_tokens', 'preserve_recent_turns', 'summary_max_tokens', 'auto_refresh'] as const;
const STRATEGIES = ['truncate', 'compress'] as const satisfies readonly ContextStrategy[];
const TOKENS = { min: 1, max: Number.MAX_SAFE_INTEGER } as const;
const TURNS = { min: 0, max: Number.MAX_SAFE_INTEGER } as const;

/**
 * The `[context]` section of a parsed `strata.toml` (pure). Invariant: the result is either a
 * complete, valid config or an error, never a partial mix, so a typo can never silently run with
 * a default; every issue names its dotted key and quotes the value written. Unknown keys inside
 * `[context]` are refused because a misspelt key would otherwise be a silent no-op; the summary's
 * cap must stay below the budget, defaults included.
 */
export function contextConfigFrom(toml: StrataToml): ContextConfig | ConfigError {
  const section = SectionReader.open(toml, 'context', KEYS);
  if (section === undefined) return { ...DEFAULT_CONTEXT_CONFIG };
  if (isConfigError(section)) return section;
  const d = DEFAULT_CONTEXT_CONFIG;
  const config: ContextConfig = {
    strategy: section.oneOf('strategy', STRATEGIES) ?? d.strategy,
    maxTokens: section.integer('max_tokens', TOKENS) ?? d.maxTokens,
    preserveRecentTurns: section.integer('preserve_recent_turns', TURNS) ?? d.preserveRecentTurns,
    summaryMaxTokens: section.integer('summary_max_tokens', TOKENS) ?? d.summaryMaxTokens,
    autoRefresh: section.boolean('auto_refresh') ?? d.autoRefresh,
  };
  const bothValid = !section.refused('max_tokens') && !section.refused('summary_max_tokens');
  if (bothValid && config.summaryMaxTokens >= config.maxTokens) {
    const written = section.has('summary_max_tokens') ? String(config.summaryMaxTokens) : `${config.summaryMaxTokens}, the default`;
    section.refuse('summary_max_tokens', `must be less than context.max_tokens (${config.maxTokens})`, config.summaryMaxTokens, written);
  }
  return section.finish(config);
}
