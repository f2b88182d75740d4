import { parse, TomlError } from 'smol-toml';
import type { ConfigError, ConfigIssue } from '../conversation/contextConfig';

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

const show = (value: unknown): string => {
  if (typeof value === 'string') return JSON.stringify(value).slice(0, 60);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(1) : String(value);
  return Array.isArray(value) ? '[…]' : typeof value === 'object' && value !== null ? '{…}' : String(value);
};

const refuse = (issues: ConfigIssue[]): ConfigError => ({ kind: 'config_error', message: issues.map((i) => i.message).join('; '), issues });

/** Tells a refused configuration from a usable one. */
export function isProvidersConfigError(value: ProvidersConfig | ConfigError): value is ConfigError {
  return 'kind' in value && value.kind === 'config_error';
}

/**
 * Parse the `[providers]` section of a `strata.toml` text. Invariant: the result is a complete,
 * valid config or an error naming the dotted key and quoting what was written, never a partial
 * mix; other sections belong to other readers and are ignored; unknown keys in `[providers]` are
 * refused, so a typo never runs silently with the default.
 */
export function parseProvidersConfig(tomlText: string): ProvidersConfig | ConfigError {
  let doc: Record<string, unknown>;
  try {
    doc = parse(tomlText, { integersAsBigInt: true });
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    return refuse([{ key: undefined, line: err.line, message: `invalid TOML at line ${err.line}, column ${err.column}: ${reason}` }]);
  }
  const section = doc['providers'];
  if (section === undefined) return { ...DEFAULT_PROVIDERS_CONFIG };
  if (typeof section !== 'object' || section === null || Array.isArray(section) || section instanceof Date) {
    return refuse([{ key: 'providers', message: `providers must be a table (got ${show(section)})` }]);
  }
  const table = section as Record<string, unknown>;
  const issues: ConfigIssue[] = [];
  for (const [key, value] of Object.entries(table)) {
    if (!(KEYS as readonly string[]).includes(key)) issues.push({ key: `providers.${key}`, message: `providers.${key} is not a known key, expected ${KEYS.join(', ')} (got ${show(value)})` });
  }
  const config = { ...DEFAULT_PROVIDERS_CONFIG };
  if (Object.hasOwn(table, 'turn_timeout_ms')) {
    const value = table['turn_timeout_ms'];
    const { min, max } = PROVIDERS_CONFIG_BOUNDS.turn_timeout_ms;
    if (typeof value === 'bigint' && value >= BigInt(min) && value <= BigInt(max)) config.turnTimeoutMs = Number(value);
    else issues.push({ key: 'providers.turn_timeout_ms', message: `providers.turn_timeout_ms must be an integer from ${min} to ${max} milliseconds (got ${show(value)})` });
  }
  return issues.length > 0 ? refuse(issues) : config;
}
