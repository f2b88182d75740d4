import { isConfigError, type ConfigError, type ConfigIssue } from '../../config/ConfigError';
import { SectionReader } from '../../config/sectionReader';
import { showTomlValue } from '../../config/showTomlValue';
import type { StrataToml } from '../../config/strataToml';
import { alwaysRefused } from './commandGrammar';
import { parseCommandLine } from '../../runtime/commandLine';

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
const TOOLS_CONFIG_BOUNDS = Object.freeze({
  timeout_ms: Object.freeze({ min: 100, max: 3_600_000 }),
  max_output_bytes: Object.freeze({ min: 1024, max: 16 * 1024 * 1024 }),
  max_read_bytes: Object.freeze({ min: 1024, max: 16 * 1024 * 1024 }),
});

/** Most entries `allow` may hold, and the longest one. */
const MAX_ALLOW_ENTRIES = 64;
const MAX_ALLOW_ENTRY_CHARS = 200;

const KEYS = ['allow', 'timeout_ms', 'max_output_bytes', 'max_read_bytes'] as const;
type NumericKey = keyof typeof TOOLS_CONFIG_BOUNDS;

/**
 * The `[tools]` section of a parsed `strata.toml` (pure). Invariant: the result is either a
 * complete, valid config or an error, never a partial mix, so a typo never silently runs with a
 * default; every issue names its dotted key (`tools.allow[2]`, 0-based) and quotes the value
 * written. Unknown keys inside `[tools]` are refused. An `allow` entry must itself be a valid
 * command (no shell metacharacters, balanced quotes, none of `%`, `data:`, `file:`), since an
 * entry no command can match would be a silent no-op.
 */
export function toolsConfigFrom(toml: StrataToml): ToolsConfig | ConfigError {
  const section = SectionReader.open(toml, 'tools', KEYS);
  if (section === undefined) return defaults();
  if (isConfigError(section)) return section;
  const config = defaults();

  const allow = section.list('allow', 'an array of commands', MAX_ALLOW_ENTRIES);
  if (allow !== undefined) {
    const seen = new Map<string, number>();
    allow.forEach((entry, i) => {
      const key = `allow[${i}]`;
      const problem = allowEntryProblem(entry);
      if (problem !== undefined) return section.refuse(key, problem, entry);
      const canonical = (parseCommandLine(entry as string) as { argv: string[] }).argv.join('\u0000');
      const first = seen.get(canonical);
      if (first !== undefined) return section.refuse(key, `repeats tools.allow[${first}]`, entry);
      seen.set(canonical, i);
    });
    if (!section.refused('allow')) config.allow = allow.map((e) => (e as string).trim());
  }
  config.timeoutMs = section.integer('timeout_ms', TOOLS_CONFIG_BOUNDS.timeout_ms) ?? config.timeoutMs;
  config.maxOutputBytes = section.integer('max_output_bytes', TOOLS_CONFIG_BOUNDS.max_output_bytes) ?? config.maxOutputBytes;
  config.maxReadBytes = section.integer('max_read_bytes', TOOLS_CONFIG_BOUNDS.max_read_bytes) ?? config.maxReadBytes;
  return section.finish(config);
}

/**
 * Check a config built in code (not parsed): the same rules as `toolsConfigFrom`, keyed the same
 * way. Returns the issues, empty when the config is usable.
 */
export function validateToolsConfig(config: ToolsConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const bad = (key: string, rule: string, value: unknown) => issues.push({ key: `tools.${key}`, message: `tools.${key} ${rule} (got ${showTomlValue(value)})` });
  if (!Array.isArray(config.allow)) bad('allow', 'must be an array of commands', config.allow);
  else if (config.allow.length > MAX_ALLOW_ENTRIES) issues.push({ key: 'tools.allow', message: `tools.allow must hold at most ${MAX_ALLOW_ENTRIES} entries (got ${config.allow.length} entries)` });
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

function defaults(): ToolsConfig {
  return { ...DEFAULT_TOOLS_CONFIG, allow: [] };
}
