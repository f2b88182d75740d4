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
import { isConfigError, type ConfigError } from '../../../config/ConfigError';
import { SectionReader } from '../../../config/sectionReader';
import type { StrataToml } from '../../../config/strataToml';
import type { SessionRoots } from './discoverSessions';

export interface SessionsConfig {
  claudeProjects?: string;
  codexSessions?: string;
  dirs: string[];
}

/** Extra folders one workspace may name. */
export const MAX_SESSIONS_DIRS = 32;
const KEYS = ['claude_projects', 'codex_sessions', 'dirs'] as const;

const isPath = (v: string): boolean => v.trim() !== '' && !v.includes('\0') && v.length <= 4096;

/** The `[sessions]` section of a parsed strata.toml; no section is no settings. */
export function sessionsConfigFrom(toml: StrataToml): SessionsConfig | ConfigError {
  const section = SectionReader.open(toml, 'sessions', KEYS);
  if (section === undefined) return { dirs: [] };
  if (isConfigError(section)) return section;
  const claudeProjects = section.string('claude_projects', 'a folder path (a non-empty string)', isPath);
  const codexSessions = section.string('codex_sessions', 'a folder path (a non-empty string)', isPath);
  const dirs = section.stringList('dirs', 'a list of folder paths (non-empty strings)', MAX_SESSIONS_DIRS, isPath);
  return section.finish({ ...(claudeProjects !== undefined ? { claudeProjects } : {}), ...(codexSessions !== undefined ? { codexSessions } : {}), dirs: dirs ?? [] });
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
