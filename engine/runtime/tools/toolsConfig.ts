import { parse, TomlError } from 'smol-toml';
import type { ConfigError, ConfigIssue } from '../../conversation/contextConfig';
import { alwaysRefused } from './commandGrammar';
import { parseCommandLine } from './commandLine';

/** The `[tools]` section of `strata.toml`, in the engine's names. */
export interface ToolsConfig {
  /**
   * Commands an agent may run with `run_command`, as written (`"npm test"`). An entry permits
   * exactly itself; more arguments only where its program has a grammar (`commandGrammar.ts`:
   * package scripts after "--", vitest, jest, `node --test`, pytest), which accepts test files and
   * filters inside the workspace and a few harmless options, nothing else. Empty (the default):
   * no command runs.
   */
  allow: readonly string[];
  /** Wall-clock limit of one command; the process group is killed after it. */
  timeoutMs: number;
  /** Cap of one command's output (stdout and stderr together); head and tail are kept. */
  maxOutputBytes: number;
  /** Cap of the file content one `read_file` returns. */
  maxReadBytes: number;
}

/** The values used for a missing file, a missing section or a missing key. */
export const DEFAULT_TOOLS_CONFIG: Readonly<ToolsConfig> = Object.freeze({
  allow: Object.freeze([]),
  timeoutMs: 30_000,
  maxOutputBytes: 32_768,
  maxReadBytes: 262_144,
});

/** Inclusive bounds of the numeric keys; a value outside them is refused, never clamped. */
export const TOOLS_CONFIG_BOUNDS = Object.freeze({
  timeout_ms: Object.freeze({ min: 100, max: 3_600_000 }),
  max_output_bytes: Object.freeze({ min: 1024, max: 16 * 1024 * 1024 }),
  max_read_bytes: Object.freeze({ min: 1024, max: 16 * 1024 * 1024 }),
});

/** Most entries `allow` may hold, and the longest one. */
export const MAX_ALLOW_ENTRIES = 64;
export const MAX_ALLOW_ENTRY_CHARS = 200;

const KEYS = ['allow', 'timeout_ms', 'max_output_bytes', 'max_read_bytes'] as const;
type NumericKey = keyof typeof TOOLS_CONFIG_BOUNDS;
const SHOWN_CHARS = 60;

/** Tells a refused configuration from a usable one. */
export function isToolsConfigError(value: ToolsConfig | ConfigError): value is ConfigError {
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

/**
 * Parse the `[tools]` section of a `strata.toml` text. Invariant: the result is either a complete,
 * valid config or an error, never a partial mix, so a typo never silently runs with a default;
 * every issue names its dotted key (`tools.allow[2]`, 0-based) and quotes the value written (or
 * the line, for invalid TOML). Other sections (`[context]`, ...) belong to other readers and are
 * ignored; unknown keys inside `[tools]` are refused. An `allow` entry must itself be a valid
 * command (no shell metacharacters, balanced quotes, none of `%`, `data:`, `file:`), since an
 * entry no command can match would be a silent no-op.
 */
export function parseToolsConfig(tomlText: string): ToolsConfig | ConfigError {
  let doc: Record<string, unknown>;
  try {
    doc = parse(tomlText, { integersAsBigInt: true });
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    return refuse([{ key: undefined, line: err.line, message: `invalid TOML at line ${err.line}, column ${err.column}: ${reason}` }]);
  }
  const section = doc['tools'];
  if (section === undefined) return defaults();
  if (!isTable(section)) return refuse([{ key: 'tools', message: `tools must be a table (got ${show(section)})` }]);

  const issues: ConfigIssue[] = [];
  const bad = (key: string, rule: string, value: unknown) => issues.push({ key: `tools.${key}`, message: `tools.${key} ${rule} (got ${show(value)})` });
  for (const [key, value] of Object.entries(section)) {
    if (!(KEYS as readonly string[]).includes(key)) bad(key, `is not a known key, expected ${KEYS.slice(0, -1).join(', ')} or ${KEYS.at(-1)}`, value);
  }
  const config = defaults();

  if (Object.hasOwn(section, 'allow')) {
    const allow = section['allow'];
    if (!Array.isArray(allow)) bad('allow', 'must be an array of commands', allow);
    else if (allow.length > MAX_ALLOW_ENTRIES) bad('allow', `must hold at most ${MAX_ALLOW_ENTRIES} entries`, `${allow.length} entries`);
    else {
      const seen = new Map<string, number>();
      allow.forEach((entry, i) => {
        const key = `allow[${i}]`;
        const problem = allowEntryProblem(entry);
        if (problem !== undefined) return bad(key, problem, entry);
        const canonical = (parseCommandLine(entry as string) as { argv: string[] }).argv.join('\u0000');
        const first = seen.get(canonical);
        if (first !== undefined) return bad(key, `repeats tools.allow[${first}]`, entry);
        seen.set(canonical, i);
      });
      if (!issues.some((x) => x.key?.startsWith('tools.allow'))) config.allow = allow.map((e) => (e as string).trim());
    }
  }
  for (const key of ['timeout_ms', 'max_output_bytes', 'max_read_bytes'] as const) {
    if (!Object.hasOwn(section, key)) continue;
    const n = boundedInt(section[key], key);
    if (n === undefined) {
      const { min, max } = TOOLS_CONFIG_BOUNDS[key];
      bad(key, `must be an integer from ${min} to ${max}`, section[key]);
    } else if (key === 'timeout_ms') config.timeoutMs = n;
    else if (key === 'max_output_bytes') config.maxOutputBytes = n;
    else config.maxReadBytes = n;
  }
  return issues.length > 0 ? refuse(issues) : config;
}

/**
 * Check a config built in code (not parsed): the same rules as `parseToolsConfig`, keyed the same
 * way. Returns the issues, empty when the config is usable.
 */
export function validateToolsConfig(config: ToolsConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const bad = (key: string, rule: string, value: unknown) => issues.push({ key: `tools.${key}`, message: `tools.${key} ${rule} (got ${show(value)})` });
  if (!Array.isArray(config.allow)) bad('allow', 'must be an array of commands', config.allow);
  else if (config.allow.length > MAX_ALLOW_ENTRIES) bad('allow', `must hold at most ${MAX_ALLOW_ENTRIES} entries`, `${config.allow.length} entries`);
  else config.allow.forEach((entry, i) => {
    const problem = allowEntryProblem(entry);
    if (problem !== undefined) bad(`allow[${i}]`, problem, entry);
  });
  const numbers: [NumericKey, number][] = [['timeout_ms', config.timeoutMs], ['max_output_bytes', config.maxOutputBytes], ['max_read_bytes', config.maxReadBytes]];
  for (const [key, value] of numbers) {
    const { min, max } = TOOLS_CONFIG_BOUNDS[key];
    if (!(Number.isInteger(value) && value >= min && value <= max)) bad(key, `must be an integer from ${min} to ${max}`, value);
  }
  return issues;
}

/** Why one `allow` entry is refused, or undefined. */
function allowEntryProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'string') return 'must be a string';
  if (entry.trim().length === 0) return 'must not be empty';
  if (entry.length > MAX_ALLOW_ENTRY_CHARS) return `must be at most ${MAX_ALLOW_ENTRY_CHARS} characters`;
  const parsed = parseCommandLine(entry);
  if (!parsed.ok) return `is not a usable command: ${parsed.reason}`;
  if (parsed.argv.length === 0 || parsed.argv[0] === '') return 'must start with a program name';
  const refused = parsed.argv.map(alwaysRefused).find((why) => why !== undefined);
  if (refused !== undefined) return `is not a usable command: it ${refused}`;
  return undefined;
}

/** A bigint within the key's bounds as a number, or undefined. */
function boundedInt(value: unknown, key: NumericKey): number | undefined {
  const { min, max } = TOOLS_CONFIG_BOUNDS[key];
  return typeof value === 'bigint' && value >= BigInt(min) && value <= BigInt(max) ? Number(value) : undefined;
}

function defaults(): ToolsConfig {
  return { ...DEFAULT_TOOLS_CONFIG, allow: [] };
}

function refuse(issues: ConfigIssue[]): ConfigError {
  return { kind: 'config_error', message: issues.map((i) => i.message).join('; '), issues };
}
