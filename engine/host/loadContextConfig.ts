import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONTEXT_CONFIG, parseContextConfig, type ConfigError, type ContextConfig } from '../conversation/contextConfig';

/** The workspace's configuration file, beside the project it configures. */
export const CONFIG_FILE_NAME = 'strata.toml';

/**
 * The `[context]` configuration of a workspace: `<workspaceDir>/strata.toml` parsed by
 * `parseContextConfig`, or the defaults when the file does not exist. Invariant: a file that exists
 * but cannot be read or parsed is an error, never the defaults, so a broken config is noticed
 * instead of quietly replaced. Every message starts with the file's path so the person knows which
 * file to fix.
 */
export function loadContextConfig(workspaceDir: string): ContextConfig | ConfigError {
  const file = join(workspaceDir, CONFIG_FILE_NAME);
  let parsed: ContextConfig | ConfigError;
  try {
    parsed = parseContextConfig(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT') return { ...DEFAULT_CONTEXT_CONFIG };
    const reason = typeof code === 'string' ? code : err instanceof Error ? err.message : String(err);
    parsed = { kind: 'config_error', message: `cannot be read (${reason})`, issues: [{ key: undefined, message: `cannot be read (${reason})` }] };
  }
  if (!('kind' in parsed)) return parsed;
  return {
    kind: 'config_error',
    message: `${file}: ${parsed.message}`,
    issues: parsed.issues.map((i) => ({ ...i, message: `${file}: ${i.message}` })),
  };
}
