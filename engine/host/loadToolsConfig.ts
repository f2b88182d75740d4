import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConfigError } from '../conversation/contextConfig';
import { DEFAULT_TOOLS_CONFIG, parseToolsConfig, type ToolsConfig } from '../runtime/tools/toolsConfig';
import { CONFIG_FILE_NAME } from './loadContextConfig';

/**
 * The `[tools]` configuration of a workspace: `<workspaceDir>/strata.toml` parsed by
 * `parseToolsConfig`, or the defaults (no command allowed) when the file does not exist.
 * Invariant: a file that exists but cannot be read or parsed is an error, never the defaults, so a
 * broken config is noticed instead of quietly replaced. Every message starts with the file's path.
 */
export function loadToolsConfig(workspaceDir: string): ToolsConfig | ConfigError {
  const file = join(workspaceDir, CONFIG_FILE_NAME);
  let parsed: ToolsConfig | ConfigError;
  try {
    parsed = parseToolsConfig(readFileSync(file, 'utf8'));
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === 'ENOENT') return { ...DEFAULT_TOOLS_CONFIG, allow: [] };
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
