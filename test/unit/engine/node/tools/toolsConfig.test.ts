import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isConfigError, type ConfigError } from '../../../../../engine/config/ConfigError';
import { loadStrataConfig, strataConfigFromText } from '../../../../../engine/node/workspace/loadStrataConfig';
import { DEFAULT_TOOLS_CONFIG, validateToolsConfig, type ToolsConfig } from '../../../../../engine/node/tools/toolsConfig';
import { tempDir } from '../../../../support/tempDir';

const tools = (body: string) => `[tools]\n${body}\n`;
const DEFAULTS: ToolsConfig = { allow: [], timeoutMs: 30000, maxOutputBytes: 32768, maxReadBytes: 262144 };
const parseToolsConfig = (text: string) => strataConfigFromText(text).tools;
const loadToolsConfig = (dir: string) => loadStrataConfig(dir).tools;

function expectError(result: ToolsConfig | ConfigError): ConfigError {
  if (!isConfigError(result)) throw new Error(`expected a config error, got ${JSON.stringify(result)}`);
  return result;
}

describe('parseToolsConfig', () => {
  it.each<[string, string]>([
    ['an empty file', ''],
    ['a file with only [context]', '[context]\nstrategy = "compress"\nmax_tokens = 9000\n'],
    ['an empty [tools]', '[tools]\n'],
    ['only comments', '# nothing\n'],
  ])('[tools] %s gives the defaults (no command allowed)', (_name, text) => {
    expect(parseToolsConfig(text)).toEqual(DEFAULTS);
  });

  it('[tools] the defaults are the documented ones and cannot be mutated through a result', () => {
    expect(DEFAULT_TOOLS_CONFIG).toEqual(DEFAULTS);
    const got = parseToolsConfig('') as ToolsConfig;
    (got.allow as string[]).push('rm');
    got.timeoutMs = 1;
    expect(DEFAULT_TOOLS_CONFIG.allow).toEqual([]);
    expect(DEFAULT_TOOLS_CONFIG.timeoutMs).toBe(30000);
  });

  it('[tools] reads every key, ignores other sections and keeps allow entries as written (trimmed)', () => {
    const text = `[context]\nstrategy = "truncate"\nunknown_to_tools = 1\n\n[tools]\nallow = ["npm test", " npx vitest run ", "node"]\ntimeout_ms = 5_000\nmax_output_bytes = 4096\nmax_read_bytes = 1024\n\n[model]\nname = "x"\n`;
    expect(parseToolsConfig(text)).toEqual({ allow: ['npm test', 'npx vitest run', 'node'], timeoutMs: 5000, maxOutputBytes: 4096, maxReadBytes: 1024 });
  });

  it('[tools] an inline table is read the same way', () => {
    expect(parseToolsConfig('tools = { allow = ["npm test"], timeout_ms = 1000 }\n')).toEqual({ ...DEFAULTS, allow: ['npm test'], timeoutMs: 1000 });
  });

  it.each<[string, string, string, string]>([
    ['allow not an array', 'allow = "npm test"', 'tools.allow', 'must be an array'],
    ['an allow entry that is a number', 'allow = ["npm test", "npx vitest run", 3]', 'tools.allow[2]', 'must be a string'],
    ['an empty allow entry', 'allow = ["npm test", "  "]', 'tools.allow[1]', 'must not be empty'],
    ['an allow entry with a metacharacter', 'allow = ["npm test; rm -rf /"]', 'tools.allow[0]', 'metacharacter'],
    ['an allow entry with a pipe', 'allow = ["npm test", "cat x | sh"]', 'tools.allow[1]', 'metacharacter'],
    ['an allow entry with an unclosed quote', `allow = ["node '-e"]`, 'tools.allow[0]', 'unclosed single quote'],
    ['an allow entry with a newline', 'allow = ["npm\\ntest"]', 'tools.allow[0]', 'line break'],
    ['an allow entry that starts with an empty word', `allow = ["'' x"]`, 'tools.allow[0]', 'program name'],
    ['a repeated allow entry', 'allow = ["npm test", "npm  test"]', 'tools.allow[1]', 'repeats tools.allow[0]'],
    ['an allow entry with a percent sign', 'allow = ["npm test", "npm test -- a%20b"]', 'tools.allow[1]', 'contains "%", which is never allowed'],
    ['an allow entry with a data: URL', 'allow = ["node --test --import=DATA:text/javascript,1"]', 'tools.allow[0]', 'contains "data:"'],
    ['an allow entry with a file: URL', 'allow = ["node --test --import=file:///tmp/x.mjs"]', 'tools.allow[0]', 'contains "file:"'],
    ['timeout_ms zero', 'timeout_ms = 0', 'tools.timeout_ms', 'from 100 to 3600000'],
    ['timeout_ms too large', 'timeout_ms = 3600001', 'tools.timeout_ms', 'from 100 to 3600000'],
    ['timeout_ms a float', 'timeout_ms = 1000.0', 'tools.timeout_ms', '(got 1000.0)'],
    ['timeout_ms a string', 'timeout_ms = "30s"', 'tools.timeout_ms', '(got "30s")'],
    ['max_output_bytes too small', 'max_output_bytes = 10', 'tools.max_output_bytes', 'from 1024 to 16777216'],
    ['max_output_bytes negative', 'max_output_bytes = -1', 'tools.max_output_bytes', '(got -1)'],
    ['max_read_bytes too large', 'max_read_bytes = 99999999999', 'tools.max_read_bytes', 'from 1024 to 16777216'],
    ['max_read_bytes a boolean', 'max_read_bytes = true', 'tools.max_read_bytes', '(got true)'],
    ['an unknown key', 'allowed = ["npm test"]', 'tools.allowed', 'is not a known key, expected allow, timeout_ms, max_output_bytes or max_read_bytes'],
  ])('[tools] %s is refused naming %s', (_name, body, key, fragment) => {
    const err = expectError(parseToolsConfig(tools(body)));
    expect(err.issues.map((i) => i.key)).toEqual([key]);
    expect(err.message).toContain(key);
    expect(err.message).toContain(fragment);
  });

  it('[tools] every problem is reported, and nothing of a refused config is used', () => {
    const err = expectError(parseToolsConfig(tools('allow = ["ok", 1, "a && b"]\ntimeout_ms = 1\nmax_read_bytes = 0\nextra = 2')));
    expect(err.issues.map((i) => i.key).sort()).toEqual(['tools.allow[1]', 'tools.allow[2]', 'tools.extra', 'tools.max_read_bytes', 'tools.timeout_ms']);
    expect(err.kind).toBe('config_error');
  });

  it('[tools] too many allow entries and an over-long one are refused', () => {
    const many = `allow = [${Array.from({ length: 65 }, (_, i) => `"cmd${i}"`).join(', ')}]`;
    expect(expectError(parseToolsConfig(tools(many))).issues[0]?.key).toBe('tools.allow');
    expect(expectError(parseToolsConfig(tools(`allow = ["${'x'.repeat(201)}"]`))).issues[0]?.key).toBe('tools.allow[0]');
  });

  it('[tools] [tools] that is not a table, and invalid TOML, are refused', () => {
    expect(expectError(parseToolsConfig('tools = 3\n')).issues).toEqual([{ key: 'tools', message: 'tools must be a table (got 3)' }]);
    const syntax = expectError(parseToolsConfig('[tools]\nallow = ["npm test"\n'));
    expect(syntax.issues[0]?.key).toBeUndefined();
    expect(syntax.issues[0]?.line).toBeGreaterThan(0);
    expect(syntax.message).toMatch(/^invalid TOML at line \d+, column \d+/);
  });

  it('[tools] validateToolsConfig checks a config built in code with the same keys', () => {
    expect(validateToolsConfig(DEFAULTS)).toEqual([]);
    const issues = validateToolsConfig({ allow: ['npm test', 'a|b'], timeoutMs: 50, maxOutputBytes: 1.5, maxReadBytes: 2048 });
    expect(issues.map((i) => i.key)).toEqual(['tools.allow[1]', 'tools.timeout_ms', 'tools.max_output_bytes']);
  });
});

describe('loadToolsConfig', () => {
  let dir: string;
  let remove: () => void;
  beforeEach(() => ({ dir, remove } = tempDir()));
  afterEach(() => remove());

  it('[tools] a missing strata.toml gives the defaults', () => {
    expect(loadToolsConfig(dir)).toEqual(DEFAULTS);
  });

  it('[tools] reads [tools] from strata.toml beside [context]', () => {
    writeFileSync(join(dir, 'strata.toml'), '[context]\nstrategy = "compress"\n[tools]\nallow = ["npm test"]\n');
    expect(loadToolsConfig(dir)).toEqual({ ...DEFAULTS, allow: ['npm test'] });
  });

  it('[tools] an invalid file is an error whose messages start with the file path and name the key', () => {
    const file = join(dir, 'strata.toml');
    writeFileSync(file, '[tools]\nallow = ["npm test", "npx vitest run", "x; y"]\n');
    const err = expectError(loadToolsConfig(dir));
    expect(err.issues[0]?.key).toBe('tools.allow[2]');
    expect(err.message.startsWith(`${file}: tools.allow[2]`)).toBe(true);
  });

  it('[tools] a strata.toml that cannot be read is an error, never the defaults', () => {
    mkdirSync(join(dir, 'strata.toml'));
    const err = expectError(loadToolsConfig(dir));
    expect(err.message).toContain('cannot be read (EISDIR)');
  });

  const cannotChmod = process.platform === 'win32' || process.getuid?.() === 0;
  if (cannotChmod) console.warn('toolsConfig: SKIPPED "an unreadable strata.toml is an error": as root (or on Windows) a file with mode 000 stays readable, so EACCES cannot happen here; the EISDIR case above covers the read-error path');
  it.skipIf(cannotChmod)('[tools] an unreadable strata.toml is an error', () => {
    const file = join(dir, 'strata.toml');
    writeFileSync(file, '[tools]\n');
    chmodSync(file, 0o000);
    expect(expectError(loadToolsConfig(dir)).message).toContain('EACCES');
  });
});
