/**
 * The `[sessions]` settings of a workspace's strata.toml (`[live-settings]`): where the control
 * room looks for Claude Code and Codex sessions when the standard folders are not the right ones.
 *
 *   [sessions]
 *   claude_projects = "~/work/claude-home/projects"  # replaces Claude Code's projects folder
 *   codex_sessions = "/srv/codex/sessions"           # replaces Codex's sessions folder
 *   dirs = ["sessions", "~/archive/agent-sessions"]  # more folders, either tool, told apart by content
 *
 * Relative paths are the workspace folder's, `~/` is the user's home. `--sessions-dir` on the
 * command line adds folders after these. A refused section changes nothing and says why, naming the
 * key, like the other sections of strata.toml.
 */
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { parse, TomlError } from 'smol-toml';
import type { ConfigError, ConfigIssue } from '../../conversation/contextConfig';
import type { SessionRoots } from './discoverSessions';

export interface SessionsConfig {
  claudeProjects?: string;
  codexSessions?: string;
  dirs: string[];
}

/** Extra folders one workspace may name. */
export const MAX_SESSIONS_DIRS = 32;
const KEYS = ['claude_projects', 'codex_sessions', 'dirs'] as const;

const refuse = (issues: ConfigIssue[]): ConfigError => ({ kind: 'config_error', message: issues.map((i) => i.message).join('; '), issues });
const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
const isPath = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '' && !v.includes('\0') && v.length <= 4096;

/** Parse the `[sessions]` section of strata.toml text; no section is no settings. */
export function parseSessionsConfig(tomlText: string): SessionsConfig | ConfigError {
  let doc: Record<string, unknown>;
  try {
    doc = parse(tomlText);
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    return refuse([{ key: undefined, line: err.line, message: `invalid TOML at line ${err.line}, column ${err.column}: ${reason}` }]);
  }
  const section = doc['sessions'];
  if (section === undefined) return { dirs: [] };
  if (!isTable(section)) return refuse([{ key: 'sessions', message: 'sessions must be a table' }]);
  const issues: ConfigIssue[] = [];
  const config: SessionsConfig = { dirs: [] };
  for (const key of Object.keys(section)) {
    if (!(KEYS as readonly string[]).includes(key)) issues.push({ key: `sessions.${key}`, message: `sessions.${key} is not a known key, expected claude_projects, codex_sessions or dirs` });
  }
  for (const [key, field] of [
    ['claude_projects', 'claudeProjects'],
    ['codex_sessions', 'codexSessions'],
  ] as const) {
    if (!Object.hasOwn(section, key)) continue;
    const v = section[key];
    if (isPath(v)) config[field] = v;
    else issues.push({ key: `sessions.${key}`, message: `sessions.${key} must be a folder path (a non-empty string)` });
  }
  if (Object.hasOwn(section, 'dirs')) {
    const v = section['dirs'];
    if (!Array.isArray(v) || !v.every(isPath)) issues.push({ key: 'sessions.dirs', message: 'sessions.dirs must be a list of folder paths (non-empty strings)' });
    else if (v.length > MAX_SESSIONS_DIRS) issues.push({ key: 'sessions.dirs', message: `sessions.dirs names ${v.length} folders; at most ${MAX_SESSIONS_DIRS}` });
    else config.dirs = v;
  }
  return issues.length ? refuse(issues) : config;
}

/** `path` as an absolute folder: `~/` is `home`, a relative path is `base`'s. */
export function settingsPath(path: string, base: string, home: string = homedir()): string {
  if (path === '~') return home;
  if (path.startsWith('~/')) return join(home, path.slice(2));
  return isAbsolute(path) ? resolve(path) : resolve(base, path);
}

/** The roots with the settings applied: named standard folders replaced, the settings' folders before the command line's. */
export function applySessionsConfig(roots: SessionRoots, config: SessionsConfig, base: string, home?: string): SessionRoots {
  const p = (x: string) => settingsPath(x, base, home);
  return {
    ...roots,
    ...(config.claudeProjects !== undefined ? { claude: p(config.claudeProjects) } : {}),
    ...(config.codexSessions !== undefined ? { codex: p(config.codexSessions) } : {}),
    extra: [...new Set([...config.dirs.map(p), ...(roots.extra ?? [])])],
  };
}
