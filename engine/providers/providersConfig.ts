import { isConfigError, type ConfigError } from '../config/ConfigError';
import { SectionReader } from '../config/sectionReader';
import type { StrataToml } from '../config/strataToml';

/** The `[providers]` section of `strata.toml`, in the engine's names. */
export interface ProvidersConfig {
  /**
   * The one bound on a turn's time with its provider (`[provider-time-limit]`): every attempt,
   * every wait before a retry and a refresh's repeated call together. Each attempt waits at most
   * half of it for a response (`attemptTimeoutMs`), so a silent provider fails the turn within it.
   */
  turnTimeoutMs: number;
}

/** The values used for a missing file, a missing section or a missing key. */
export const DEFAULT_PROVIDERS_CONFIG: Readonly<ProvidersConfig> = Object.freeze({ turnTimeoutMs: 300_000 });

/** Inclusive bounds; a value outside them is refused, never clamped. */
export const PROVIDERS_CONFIG_BOUNDS = Object.freeze({ turn_timeout_ms: Object.freeze({ min: 1_000, max: 3_600_000 }) });

/** How long one attempt waits for a response (or, streaming, the next chunk): half the turn's limit. */
export function attemptTimeoutMs(turnTimeoutMs: number): number {
  return Math.ceil(turnTimeoutMs / 2);
}

const KEYS = ['turn_timeout_ms'] as const;

/**
 * The `[providers]` section of a parsed `strata.toml` (pure). Invariant: the result is a complete,
 * valid config or an error naming the dotted key and quoting what was written, never a partial
 * mix; unknown keys in `[providers]` are refused, so a typo never runs silently with the default.
 */
export function providersConfigFrom(toml: StrataToml): ProvidersConfig | ConfigError {
  const section = SectionReader.open(toml, 'providers', KEYS);
  if (section === undefined) return { ...DEFAULT_PROVIDERS_CONFIG };
  if (isConfigError(section)) return section;
  const turnTimeoutMs = section.integer('turn_timeout_ms', { ...PROVIDERS_CONFIG_BOUNDS.turn_timeout_ms, unit: 'milliseconds' });
  return section.finish({ turnTimeoutMs: turnTimeoutMs ?? DEFAULT_PROVIDERS_CONFIG.turnTimeoutMs });
}
