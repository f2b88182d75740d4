import { parse, TomlError } from 'smol-toml';

/** How a conversation that outgrows its budget continues (context-manager-issue.md). */
export type ContextStrategy = 'truncate' | 'compress';

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

/** One problem with the configuration; `key` is the dotted TOML key, absent for a syntax error. */
export interface ConfigIssue {
  key: string | undefined;
  /** 1-based line of a TOML syntax error. */
  line?: number;
  message: string;
}

/** A configuration that was refused; nothing of it is used. `message` joins every issue. */
export interface ConfigError {
  kind: 'config_error';
  message: string;
  issues: ConfigIssue[];
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
type Key = (typeof KEYS)[number];
const STRATEGIES: readonly string[] = ['truncate', 'compress'] satisfies ContextStrategy[];
const SHOWN_CHARS = 60;

/** Tells a refused configuration from a usable one. */
export function isConfigError(value: ContextConfig | ConfigError): value is ConfigError {
  return 'kind' in value && value.kind === 'config_error';
}

/** A value as it would be written in TOML, clipped, so a message quotes what the person wrote. */
function show(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'bigint') text = value.toString();
  else if (typeof value === 'number') {
    // Integers parse as bigint, so every number here is a TOML float and is shown as one.
    text = Number.isNaN(value) ? 'nan' : !Number.isFinite(value) ? (value > 0 ? 'inf' : '-inf') : Number.isInteger(value) ? value.toFixed(1) : String(value);
  } else if (value instanceof Date) text = value.toISOString();
  else if (Array.isArray(value)) text = `[${value.map(show).join(', ')}]`;
  else if (typeof value === 'object' && value !== null) text = `{ ${Object.entries(value).map(([k, v]) => `${k} = ${show(v)}`).join(', ')} }`;
  else text = String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
}

const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/** A bigint in [min, MAX_SAFE_INTEGER] as a number, or undefined. */
function intAtLeast(value: unknown, min: number): number | undefined {
  return typeof value === 'bigint' && value >= BigInt(min) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}

/**
 * Parse the `[context]` section of a `strata.toml` text. Invariant: the result is either a
 * complete, valid config or an error, never a partial mix, so a typo can never silently run with
 * a default; every issue names its dotted key and quotes the value written (or the line, for
 * invalid TOML). Other sections belong to other readers and are ignored; unknown keys inside
 * `[context]` are refused because a misspelt key would otherwise be a silent no-op.
 * Integers are parsed as bigint so `32000.0` (a float) is told apart from `32000`.
 */
export function parseContextConfig(tomlText: string): ContextConfig | ConfigError {
  let doc: Record<string, unknown>;
  try {
    doc = parse(tomlText, { integersAsBigInt: true });
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    return refuse([{ key: undefined, line: err.line, message: `invalid TOML at line ${err.line}, column ${err.column}: ${reason}` }]);
  }
  const section = doc['context'];
  if (section === undefined) return { ...DEFAULT_CONTEXT_CONFIG };
  if (!isTable(section)) return refuse([{ key: 'context', message: `context must be a table (got ${show(section)})` }]);

  const issues: ConfigIssue[] = [];
  const bad = (key: string, rule: string, value: unknown) => issues.push({ key: `context.${key}`, message: `context.${key} ${rule} (got ${show(value)})` });
  for (const [key, value] of Object.entries(section)) {
    if (!(KEYS as readonly string[]).includes(key)) bad(key, `is not a known key, expected ${KEYS.slice(0, -1).join(', ')} or ${KEYS.at(-1)}`, value);
  }
  const has = (key: Key) => Object.hasOwn(section, key);
  const config: ContextConfig = { ...DEFAULT_CONTEXT_CONFIG };

  const strategy = section['strategy'];
  if (has('strategy')) {
    if (typeof strategy === 'string' && STRATEGIES.includes(strategy)) config.strategy = strategy as ContextStrategy;
    else bad('strategy', 'must be "truncate" or "compress"', strategy);
  }
  const integer = (key: Key, min: number, rule: string): number | undefined => {
    if (!has(key)) return undefined;
    const n = intAtLeast(section[key], min);
    if (n === undefined) bad(key, `must be ${rule} no larger than ${Number.MAX_SAFE_INTEGER}`, section[key]);
    return n;
  };
  config.maxTokens = integer('max_tokens', 1, 'a positive integer') ?? config.maxTokens;
  config.preserveRecentTurns = integer('preserve_recent_turns', 0, 'an integer >= 0') ?? config.preserveRecentTurns;
  config.summaryMaxTokens = integer('summary_max_tokens', 1, 'a positive integer') ?? config.summaryMaxTokens;
  if (has('auto_refresh')) {
    const flag = section['auto_refresh'];
    if (typeof flag === 'boolean') config.autoRefresh = flag;
    else bad('auto_refresh', 'must be true or false', flag);
  }
  const bothValid = !issues.some((i) => i.key === 'context.max_tokens' || i.key === 'context.summary_max_tokens');
  if (bothValid && config.summaryMaxTokens >= config.maxTokens) {
    const written = has('summary_max_tokens') ? String(config.summaryMaxTokens) : `${config.summaryMaxTokens}, the default`;
    issues.push({
      key: 'context.summary_max_tokens',
      message: `context.summary_max_tokens must be less than context.max_tokens (${config.maxTokens}) (got ${written})`,
    });
  }
  return issues.length > 0 ? refuse(issues) : config;
}

function refuse(issues: ConfigIssue[]): ConfigError {
  return { kind: 'config_error', message: issues.map((i) => i.message).join('; '), issues };
}
