import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, isConfigError } from '../../config/ConfigError';
import { parseStrataToml } from '../../config/strataToml';
import { contextConfigFrom, DEFAULT_CONTEXT_CONFIG, type ContextConfig } from '../../conversation/contextConfig';
import { DEFAULT_PROVIDERS_CONFIG, providersConfigFrom, type ProvidersConfig } from '../../providers/providersConfig';
import { DEFAULT_TOOLS_CONFIG, toolsConfigFrom, type ToolsConfig } from '../tools/toolsConfig';
import { sessionsConfigFrom, type SessionsConfig } from '../traces/live/sessionsConfig';

/** The workspace's configuration file, beside the project it configures. */
export const CONFIG_FILE_NAME = 'strata.toml';

/**
 * Every section of a workspace's `strata.toml`, each usable or refused on its own (`[config-one-loader]`):
 * a broken `[tools]` refuses model runs and leaves `[context]` in use, as each section always was.
 */
export interface StrataConfig {
  context: ContextConfig | ConfigError;
  providers: ProvidersConfig | ConfigError;
  tools: ToolsConfig | ConfigError;
  sessions: SessionsConfig | ConfigError;
}

/** What a workspace without `strata.toml` runs with; fresh objects each time, so no caller can change another's. */
function defaults(): StrataConfig {
  return { context: { ...DEFAULT_CONTEXT_CONFIG }, providers: { ...DEFAULT_PROVIDERS_CONFIG }, tools: { ...DEFAULT_TOOLS_CONFIG, allow: [] }, sessions: { dirs: [] } };
}

/** Every section of `strata.toml` text: one parse, each section's own rules; invalid TOML refuses every section alike. */
export function strataConfigFromText(text: string): StrataConfig {
  const toml = parseStrataToml(text);
  if (isConfigError(toml)) return { context: toml, providers: toml, tools: toml, sessions: toml };
  return { context: contextConfigFrom(toml), providers: providersConfigFrom(toml), tools: toolsConfigFrom(toml), sessions: sessionsConfigFrom(toml) };
}

/**
 * The configuration of a workspace: `<workspaceDir>/strata.toml` read once and parsed once, or the
 * defaults when the file does not exist. Invariant: a file that exists but cannot be read or parsed
 * refuses every section, never gives the defaults, so a broken config is noticed instead of quietly
 * replaced; every message of a refusal starts with the file's path so the person knows which file
 * to fix. The file is read on every call, so an edit applies to the next run without a restart.
 */
export function loadStrataConfig(workspaceDir: string): StrataConfig {
  const file = join(workspaceDir, CONFIG_FILE_NAME);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT') return defaults();
    const reason = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
    const unreadable = new ConfigError([{ key: undefined, message: `${file}: cannot be read (${reason})` }], file);
    return { context: unreadable, providers: unreadable, tools: unreadable, sessions: unreadable };
  }
  const config = strataConfigFromText(text);
  const inFile = <T>(section: T | ConfigError): T | ConfigError => (isConfigError(section) ? section.inFile(file) : section);
  return { context: inFile(config.context), providers: inFile(config.providers), tools: inFile(config.tools), sessions: inFile(config.sessions) };
}
