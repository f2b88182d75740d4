import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, isConfigError } from '../../../../engine/config/ConfigError';
import { DEFAULT_CONTEXT_CONFIG } from '../../../../engine/conversation/contextConfig';
import { CONFIG_FILE_NAME, loadStrataConfig, type StrataConfig } from '../../../../engine/node/workspace/loadStrataConfig';
import { DEFAULT_PROVIDERS_CONFIG } from '../../../../engine/providers/providersConfig';
import { DEFAULT_TOOLS_CONFIG } from '../../../../engine/node/tools/toolsConfig';
import { tempDir } from '../../../support/tempDir';

const SECTIONS = ['context', 'providers', 'tools', 'sessions'] as const;

const ALL_SECTIONS = `title = "my project"

[context]
strategy = "compress"
max_tokens = 16_000
preserve_recent_turns = 2
summary_max_tokens = 1_000
auto_refresh = true

[providers]
turn_timeout_ms = 90_000

[tools]
allow = ["npm test", "npx vitest run"]
timeout_ms = 5_000
max_output_bytes = 4096
max_read_bytes = 8192

[sessions]
claude_projects = "~/claude/projects"
codex_sessions = "/srv/codex"
dirs = ["sessions"]

[someone.else]
anything = 1.5
`;

describe('[config-one-loader] one loader for every section of strata.toml', () => {
  let dir: string;
  let remove: () => void;
  let file: string;
  beforeEach(() => {
    ({ dir, remove } = tempDir('strata-toml-'));
    file = join(dir, CONFIG_FILE_NAME);
  });
  afterEach(() => remove());

  it('[config-one-loader] [context-config] [provider-time-limit] [tools] [live-settings] one file with every section gives each its settings; a table nobody reads is left alone', () => {
    writeFileSync(file, ALL_SECTIONS);
    expect(loadStrataConfig(dir)).toEqual({
      context: { strategy: 'compress', maxTokens: 16000, preserveRecentTurns: 2, summaryMaxTokens: 1000, autoRefresh: true },
      providers: { turnTimeoutMs: 90000 },
      tools: { allow: ['npm test', 'npx vitest run'], timeoutMs: 5000, maxOutputBytes: 4096, maxReadBytes: 8192 },
      sessions: { claudeProjects: '~/claude/projects', codexSessions: '/srv/codex', dirs: ['sessions'] },
    } satisfies StrataConfig);
  });

  it('[config-one-loader] no strata.toml gives every default, fresh each time', () => {
    const first = loadStrataConfig(dir);
    expect(first).toEqual({ context: DEFAULT_CONTEXT_CONFIG, providers: DEFAULT_PROVIDERS_CONFIG, tools: DEFAULT_TOOLS_CONFIG, sessions: { dirs: [] } });
    (first.tools as unknown as { allow: string[] }).allow.push('rm');
    (first.sessions as unknown as { dirs: string[] }).dirs.push('x');
    expect(loadStrataConfig(dir)).toEqual(loadStrataConfig(join(dir, 'no-such-folder')));
    expect(loadStrataConfig(dir).tools).toEqual(DEFAULT_TOOLS_CONFIG);
    expect(loadStrataConfig(dir).sessions).toEqual({ dirs: [] });
  });

  it('[config-one-loader] a refused section refuses only itself, naming the file and the key', () => {
    writeFileSync(file, ALL_SECTIONS.replace('timeout_ms = 5_000', 'timeout_ms = 1.5'));
    const config = loadStrataConfig(dir);
    expect(config.tools).toBeInstanceOf(ConfigError);
    expect(config.tools).toMatchObject({ file, message: `${file}: tools.timeout_ms must be an integer from 100 to 3600000 (got 1.5)`, issues: [{ key: 'tools.timeout_ms' }] });
    expect(SECTIONS.filter((s) => isConfigError(config[s]))).toEqual(['tools']);
  });

  it('[config-one-loader] invalid TOML refuses every section with the same error, naming the file and the line', () => {
    writeFileSync(file, `${ALL_SECTIONS}\n[tools]\n`);
    const line = ALL_SECTIONS.split('\n').length + 1;
    const config = loadStrataConfig(dir);
    const messages = SECTIONS.map((s) => (isConfigError(config[s]) ? config[s].message : 'used'));
    expect(new Set(messages).size).toBe(1);
    expect(messages[0]).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid TOML at line ${line}, column \\d+: `));
    expect(isConfigError(config.sessions) ? config.sessions.issues : []).toEqual([{ key: undefined, line, message: messages[0] }]);
  });

  it('[config-one-loader] a strata.toml that cannot be read refuses every section, never gives the defaults', () => {
    mkdirSync(file);
    const config = loadStrataConfig(dir);
    for (const s of SECTIONS) expect(config[s]).toMatchObject({ kind: 'config_error', file, message: `${file}: cannot be read (EISDIR)`, issues: [{ key: undefined }] });
  });
});
