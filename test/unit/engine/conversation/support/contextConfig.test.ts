import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConfigError, type ConfigError } from '../../../../../engine/config/ConfigError';
import { DEFAULT_CONTEXT_CONFIG, type ContextConfig } from '../../../../../engine/conversation/contextConfig';
import { CONFIG_FILE_NAME, loadStrataConfig, strataConfigFromText } from '../../../../../engine/node/workspace/loadStrataConfig';

/** The `[context]` section through the one parse and the one loader (`[config-one-loader]`). */
const parseContextConfig = (text: string) => strataConfigFromText(text).context;
const loadContextConfig = (dir: string) => loadStrataConfig(dir).context;

const ctx = (body: string) => `[context]\n${body}\n`;

function expectError(result: ContextConfig | ConfigError): ConfigError {
  if (!isConfigError(result)) throw new Error(`expected a config error, got ${JSON.stringify(result)}`);
  return result;
}

describe('parseContextConfig', () => {
  it.each<[string, string]>([
    ['an empty file', ''],
    ['a file without [context]', '[model]\nname = "x"\n'],
    ['an empty [context]', '[context]\n'],
    ['only comments', '# nothing here\n'],
  ])('[context-config] %s gives the defaults', (_name, text) => {
    expect(parseContextConfig(text)).toEqual({ strategy: 'truncate', maxTokens: 32000, preserveRecentTurns: 8, summaryMaxTokens: 2000, autoRefresh: false });
  });

  it('[context-config] the defaults are the documented ones and cannot be mutated through a result', () => {
    expect(DEFAULT_CONTEXT_CONFIG).toEqual({ strategy: 'truncate', maxTokens: 32000, preserveRecentTurns: 8, summaryMaxTokens: 2000, autoRefresh: false });
    const got = parseContextConfig('') as ContextConfig;
    got.maxTokens = 1;
    expect(DEFAULT_CONTEXT_CONFIG.maxTokens).toBe(32000);
  });

  it.each<[string, string, Partial<ContextConfig>]>([
    ['the issue example', 'strategy = "truncate"\nmax_tokens = 32000\npreserve_recent_turns = 8\nsummary_max_tokens = 2000', {}],
    ['compress with its own numbers', 'strategy = "compress"\nmax_tokens = 8000\npreserve_recent_turns = 0\nsummary_max_tokens = 7999', { strategy: 'compress', maxTokens: 8000, preserveRecentTurns: 0, summaryMaxTokens: 7999 }],
    ['auto_refresh on', 'auto_refresh = true', { autoRefresh: true }],
    ['only some keys', 'max_tokens = 100000', { maxTokens: 100000 }],
    ['underscored integers', 'max_tokens = 64_000', { maxTokens: 64000 }],
  ])('[context-config] %s', (_name, body, expected) => {
    expect(parseContextConfig(ctx(body))).toEqual({ ...DEFAULT_CONTEXT_CONFIG, ...expected });
  });

  it('[context-config] an inline table and other sections are read the same way', () => {
    expect(parseContextConfig('title = "x"\ncontext = { strategy = "compress", max_tokens = 9000 }\n[other]\nkey = 1\n')).toEqual({ ...DEFAULT_CONTEXT_CONFIG, strategy: 'compress', maxTokens: 9000 });
  });

  it('[context-config] the error message of the spec example is exact', () => {
    expect(expectError(parseContextConfig(ctx('strategy = "shrink"')))).toEqual({
      kind: 'config_error',
      message: 'context.strategy must be "truncate" or "compress" (got "shrink")',
      issues: [{ key: 'context.strategy', message: 'context.strategy must be "truncate" or "compress" (got "shrink")' }],
    });
  });

  it.each<[string, string, string, string]>([
    ['an unknown strategy', 'strategy = "shrink"', 'context.strategy', '"shrink"'],
    ['a strategy in the wrong case', 'strategy = "Truncate"', 'context.strategy', '"Truncate"'],
    ['a strategy that is a number', 'strategy = 1', 'context.strategy', '1'],
    ['a strategy that is an array', 'strategy = ["truncate"]', 'context.strategy', '["truncate"]'],
    ['max_tokens zero', 'max_tokens = 0', 'context.max_tokens', '0'],
    ['max_tokens negative', 'max_tokens = -5', 'context.max_tokens', '-5'],
    ['max_tokens a float with an integral value', 'max_tokens = 32000.0', 'context.max_tokens', '32000.0'],
    ['max_tokens a fraction', 'max_tokens = 1.5', 'context.max_tokens', '1.5'],
    ['max_tokens a string', 'max_tokens = "32000"', 'context.max_tokens', '"32000"'],
    ['max_tokens beyond a safe integer', 'max_tokens = 9007199254740992', 'context.max_tokens', '9007199254740992'],
    ['max_tokens infinite', 'max_tokens = inf', 'context.max_tokens', 'inf'],
    ['max_tokens not a number', 'max_tokens = nan', 'context.max_tokens', 'nan'],
    ['preserve_recent_turns negative', 'preserve_recent_turns = -1', 'context.preserve_recent_turns', '-1'],
    ['preserve_recent_turns a fraction', 'preserve_recent_turns = 2.5', 'context.preserve_recent_turns', '2.5'],
    ['preserve_recent_turns a boolean', 'preserve_recent_turns = true', 'context.preserve_recent_turns', 'true'],
    ['summary_max_tokens zero', 'summary_max_tokens = 0', 'context.summary_max_tokens', '0'],
    ['summary_max_tokens a date', 'summary_max_tokens = 1979-05-27', 'context.summary_max_tokens', '1979-05-27'],
    ['summary_max_tokens equal to max_tokens', 'max_tokens = 4000\nsummary_max_tokens = 4000', 'context.summary_max_tokens', '4000'],
    ['summary_max_tokens above max_tokens', 'max_tokens = 4000\nsummary_max_tokens = 5000', 'context.summary_max_tokens', '5000'],
    ['max_tokens below the default summary', 'max_tokens = 1000', 'context.summary_max_tokens', '2000, the default'],
    ['auto_refresh a string', 'auto_refresh = "yes"', 'context.auto_refresh', '"yes"'],
    ['auto_refresh a number', 'auto_refresh = 1', 'context.auto_refresh', '1'],
    ['a misspelt key', 'max_token = 100', 'context.max_token', '100'],
    ['a key of another section', 'model = "gpt"', 'context.model', '"gpt"'],
    ['a nested table', '[context.extra]\nx = 1', 'context.extra', '{ x = 1 }'],
  ])('[context-config] %s is refused, naming its key and value', (_name, body, key, shown) => {
    const error = expectError(parseContextConfig(ctx(body)));
    expect(error.issues.map((i) => i.key)).toEqual([key]);
    expect(error.message).toContain(key);
    expect(error.message).toContain(`(got ${shown})`);
  });

  it('[context-config] a [context] that is not a table is refused with its value', () => {
    const error = expectError(parseContextConfig('context = 5\n'));
    expect(error.issues).toEqual([{ key: 'context', message: 'context must be a table (got 5)' }]);
  });

  it('[context-config] every problem is reported at once, in a stable order, and nothing of the section is used', () => {
    const error = expectError(parseContextConfig(ctx('colour = "red"\nstrategy = "shrink"\nmax_tokens = 0\nauto_refresh = "no"')));
    expect(error.issues.map((i) => i.key)).toEqual(['context.colour', 'context.strategy', 'context.max_tokens', 'context.auto_refresh']);
    expect(error.message.split('; ')).toHaveLength(4);
  });

  it('[context-config] a long value is quoted clipped, so the message stays readable', () => {
    const error = expectError(parseContextConfig(ctx(`strategy = "${'x'.repeat(500)}"`)));
    expect(error.message.length).toBeLessThan(160);
    expect(error.message).toContain('…');
  });

  it.each<[string, string, number]>([
    ['a doubled equals sign', 'a = 1\n[context]\nstrategy = = "x"\n', 3],
    ['a duplicated key', '[context]\nstrategy = "truncate"\n\nstrategy = "compress"\n', 4],
    ['an unterminated string', '[context]\nmax_tokens = 1\nstrategy = "trunc\n', 3],
    ['a duplicated table', '[context]\n[context]\n', 2],
  ])('[context-config] invalid TOML (%s) is an error naming the line', (_name, text, line) => {
    const error = expectError(parseContextConfig(text));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ key: undefined, line });
    expect(error.message).toMatch(new RegExp(`^invalid TOML at line ${line}, column \\d+: \\S`));
  });
});

describe('loadContextConfig', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-config-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('[context-config] a workspace without strata.toml gets the defaults', () => {
    expect(loadContextConfig(dir)).toEqual(DEFAULT_CONTEXT_CONFIG);
    expect(loadContextConfig(join(dir, 'does-not-exist'))).toEqual(DEFAULT_CONTEXT_CONFIG);
  });

  it('[context-config] reads <dir>/strata.toml', () => {
    writeFileSync(join(dir, CONFIG_FILE_NAME), '[context]\nstrategy = "compress"\nmax_tokens = 16000\n');
    expect(loadContextConfig(dir)).toEqual({ ...DEFAULT_CONTEXT_CONFIG, strategy: 'compress', maxTokens: 16000 });
  });

  it('[context-config] an invalid file is an error prefixed with the file, never the defaults', () => {
    const file = join(dir, CONFIG_FILE_NAME);
    writeFileSync(file, '[context]\nstrategy = "shrink"\n');
    const error = expectError(loadContextConfig(dir));
    expect(error.message).toBe(`${file}: context.strategy must be "truncate" or "compress" (got "shrink")`);
    expect(error.issues[0]).toMatchObject({ key: 'context.strategy', message: `${file}: context.strategy must be "truncate" or "compress" (got "shrink")` });

    writeFileSync(file, '[context\n');
    expect(expectError(loadContextConfig(dir)).message).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: invalid TOML at line 1`));
  });

  it('[context-config] a strata.toml that cannot be read is an error naming the file and why', () => {
    mkdirSync(join(dir, CONFIG_FILE_NAME));
    const error = expectError(loadContextConfig(dir));
    expect(error.message).toBe(`${join(dir, CONFIG_FILE_NAME)}: cannot be read (EISDIR)`);
  });
});
