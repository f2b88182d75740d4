import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigError } from '../conversation/contextConfig';
import { DEFAULT_PROVIDERS_CONFIG, parseProvidersConfig, type ProvidersConfig } from '../providers/providersConfig';
import { CONFIG_FILE_NAME } from './loadContextConfig';

/**
 * The `[providers]` configuration of a workspace: `<workspaceDir>/strata.toml` parsed by
 * `parseProvidersConfig`, or the defaults when the file does not exist. Invariant: a file that
 * exists but cannot be read or parsed is an error, never the defaults; every message starts with
 * the file's path.
 */
export function loadProvidersConfig(workspaceDir: string): ProvidersConfig | ConfigError {
  const file = join(workspaceDir, CONFIG_FILE_NAME);
  let parsed: ProvidersConfig | ConfigError;
  try {
    parsed = parseProvidersConfig(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT') return { ...DEFAULT_PROVIDERS_CONFIG };
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
