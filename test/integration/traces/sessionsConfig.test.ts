import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SessionDto } from '../../../engine/contract';
import { Host } from '../../../engine/host';
import { strataConfigFromText } from '../../../engine/node/workspace/loadStrataConfig';
import { applySessionsConfig, MAX_SESSIONS_DIRS, settingsPath } from '../../../engine/node/traces/live/sessionsConfig';
import { quarterTokenizer } from '../../support/engineFixtures';
import { madeUpSession } from '../../support/liveSessionFixture';
import { tempDir } from '../../support/tempDir';

const tmps: ReturnType<typeof tempDir>[] = [];
const hosts: Host[] = [];
const parseSessionsConfig = (text: string) => strataConfigFromText(text).sessions;

afterEach(() => {
  for (const h of hosts.splice(0)) h.close();
  for (const t of tmps.splice(0)) t.remove();
});

describe('[live-settings] where sessions are looked for, from strata.toml', () => {
  it('[live-settings] reads claude_projects, codex_sessions and dirs; no section is no settings', () => {
    expect(parseSessionsConfig('[context]\nstrategy = "compress"\n')).toEqual({ dirs: [] });
    expect(parseSessionsConfig('[sessions]\nclaude_projects = "~/c/projects"\ncodex_sessions = "/srv/codex"\ndirs = ["sessions", "/a"]\n')).toEqual({
      claudeProjects: '~/c/projects',
      codexSessions: '/srv/codex',
      dirs: ['sessions', '/a'],
    });
  });

  it('[live-settings] refuses what is not a folder path or not a known key, naming the key', () => {
    const refused = (text: string) => {
      const r = parseSessionsConfig(text);
      if (!('kind' in r)) throw new Error('expected a refusal');
      return r;
    };
    expect(refused('[sessions]\nclaude_project = "x"\n').issues).toEqual([{ key: 'sessions.claude_project', message: expect.stringContaining('not a known key') }]);
    expect(refused('[sessions]\ncodex_sessions = 3\n').message).toContain('sessions.codex_sessions must be a folder path');
    expect(refused('[sessions]\ndirs = "one"\n').message).toContain('sessions.dirs must be a list');
    expect(refused('[sessions]\ndirs = ["", "x"]\n').message).toContain('sessions.dirs must be a list');
    expect(refused(`[sessions]\ndirs = [${Array.from({ length: MAX_SESSIONS_DIRS + 1 }, (_, i) => `"d${i}"`).join(', ')}]\n`).message).toContain(`at most ${MAX_SESSIONS_DIRS}`);
    expect(refused('sessions = 1\n').message).toBe('sessions must be a table (got 1)');
    expect(refused('[sessions\n').issues[0]).toMatchObject({ key: undefined, line: 1, message: expect.stringContaining('invalid TOML at line 1') });
  });

  it('[live-settings] relative paths are the workspace\'s, ~/ the home\'s; named folders replace the standard ones, the settings\' folders come before the command line\'s', () => {
    expect(settingsPath('sessions', '/ws', '/home/u')).toBe('/ws/sessions');
    expect(settingsPath('~/x', '/ws', '/home/u')).toBe('/home/u/x');
    expect(settingsPath('~', '/ws', '/home/u')).toBe('/home/u');
    expect(settingsPath('/abs/../abs2', '/ws', '/home/u')).toBe('/abs2');
    const roots = { claude: '/home/u/.claude/projects', codex: '/home/u/.codex/sessions', extra: ['/cli'] };
    expect(applySessionsConfig(roots, { dirs: [] }, '/ws', '/home/u')).toEqual(roots);
    expect(applySessionsConfig(roots, { claudeProjects: 'claude', dirs: ['s', '/cli'] }, '/ws', '/home/u')).toEqual({ claude: '/ws/claude', codex: '/home/u/.codex/sessions', extra: ['/ws/s', '/cli'] });
  });

  it('[live-settings] a workspace\'s [sessions] moves where listSessions looks; a refused section leaves the standard folders and says why', async () => {
    const tmp = tempDir('strata-sessions-settings-');
    tmps.push(tmp);
    const ws = join(tmp.dir, 'ws');
    const projects = join(ws, 'agents', 'claude', 'projects', '-home-dev-login-service');
    mkdirSync(projects, { recursive: true });
    writeFileSync(join(projects, 'abc.jsonl'), `${madeUpSession(2).join('\n')}\n`);
    writeFileSync(join(ws, 'strata.toml'), '[sessions]\nclaude_projects = "agents/claude/projects"\ncodex_sessions = "agents/codex"\ndirs = ["~/no-such-folder"]\n');
    const standard = { claude: join(tmp.dir, 'home', '.claude', 'projects'), codex: join(tmp.dir, 'home', '.codex', 'sessions'), extra: [join(tmp.dir, 'cli')] };
    const host = Host.open({ catalogPath: join(tmp.dir, 'a.sqlite'), workspaceName: 'ws', version: '1', tokenizer: quarterTokenizer, workspaceDir: ws, sessionRoots: standard });
    hosts.push(host);
    const list = await host.connect(() => {}).call('listSessions', {});
    if (!list.ok) throw new Error(list.error.message);
    const { sessions, roots } = list.value as { sessions: SessionDto[]; roots: string[] };
    expect(roots[0]).toBe(join(ws, 'agents', 'claude', 'projects'));
    expect(roots[1]).toBe(join(ws, 'agents', 'codex'));
    expect(roots.at(-1)).toBe(join(tmp.dir, 'cli'));
    expect(roots).toHaveLength(4);
    expect(sessions.map((s) => [s.tool, s.project])).toEqual([['claude-code', 'login-service']]);

    writeFileSync(join(ws, 'strata.toml'), '[sessions]\nclaude_projects = 7\n');
    const refused = Host.open({ catalogPath: join(tmp.dir, 'b.sqlite'), workspaceName: 'ws', version: '1', tokenizer: quarterTokenizer, workspaceDir: ws, sessionRoots: standard });
    hosts.push(refused);
    const again = await refused.connect(() => {}).call('listSessions', {});
    if (!again.ok) throw new Error(again.error.message);
    expect((again.value as { roots: string[] }).roots).toEqual([standard.claude, standard.codex, ...standard.extra]);
    expect(refused.catalog.recentLog(10).map((e) => [e.level, e.message])).toContainEqual(['error', `${join(ws, 'strata.toml')}: sessions.claude_projects must be a folder path (a non-empty string) (got 7) — sessions are looked for in the standard folders until it is fixed`]);
  });
});
