import { describe, expect, it } from 'vitest';
import { ConfigError, isConfigError } from '../../../../engine/config/ConfigError';
import { SectionReader } from '../../../../engine/config/sectionReader';
import { parseStrataToml, type StrataToml } from '../../../../engine/config/strataToml';
import { strataConfigFromText } from '../../../../engine/node/workspace/loadStrataConfig';

function toml(text: string): StrataToml {
  const parsed = parseStrataToml(text);
  if (isConfigError(parsed)) throw new Error(parsed.message);
  return parsed;
}

/** The reader of `[s]` holding `body`, with `keys` known. */
function reader(body: string, keys: readonly string[] = ['k']): SectionReader {
  const r = SectionReader.open(toml(`[s]\n${body}\n`), 's', keys);
  if (!(r instanceof SectionReader)) throw new Error(`expected a reader, got ${JSON.stringify(r)}`);
  return r;
}

/** What `read` made of `k = <value>`: the value, or the one refusal's message. */
function outcome<T>(value: string, read: (r: SectionReader) => T): T | string {
  const r = reader(`k = ${value}`);
  const got = read(r);
  const done = r.finish(got);
  if (!isConfigError(done)) return done;
  expect(got).toBeUndefined();
  expect(done.issues.map((i) => i.key)).toEqual(['s.k']);
  return done.message;
}

/** Every integer key of every section, with its bounds, read through the one parse. */
const INTEGER_KEYS: [section: 'context' | 'providers' | 'tools', key: string, min: number, max: number][] = [
  ['context', 'max_tokens', 1, Number.MAX_SAFE_INTEGER],
  ['context', 'preserve_recent_turns', 0, Number.MAX_SAFE_INTEGER],
  ['context', 'summary_max_tokens', 1, Number.MAX_SAFE_INTEGER],
  ['providers', 'turn_timeout_ms', 1000, 3_600_000],
  ['tools', 'timeout_ms', 100, 3_600_000],
  ['tools', 'max_output_bytes', 1024, 16_777_216],
  ['tools', 'max_read_bytes', 1024, 16_777_216],
];

/** Values no integer key takes, and how each refusal quotes them. */
const NOT_INTEGERS: [written: string, shown: string][] = [
  ['1.5', '1.5'],
  ['1000.0', '1000.0'],
  ['1e3', '1000.0'],
  ['"10"', '"10"'],
  ['-1', '-1'],
  ['99999999999999999999', '99999999999999999999'],
  ['-99999999999999999999', '-99999999999999999999'],
  ['inf', 'inf'],
  ['nan', 'nan'],
  ['true', 'true'],
  ['[1000]', '[1000]'],
  ['1979-05-27', '1979-05-27'],
];

describe('[config-one-loader] one set of field readers', () => {
  it.each(INTEGER_KEYS.flatMap(([section, key, min, max]) => NOT_INTEGERS.map(([written, shown]) => ({ section, key, min, max, written, shown }))))(
    '[config-one-loader] $section.$key = $written is refused with the same integer rule as every other section',
    ({ section, key, min, max, written, shown }) => {
      const refused = strataConfigFromText(`[${section}]\n${key} = ${written}\n`)[section];
      if (!isConfigError(refused)) throw new Error(`expected ${section}.${key} = ${written} to be refused`);
      expect(refused.issues.map((i) => i.key)).toEqual([`${section}.${key}`]);
      const unit = section === 'providers' ? ' milliseconds' : '';
      expect(refused.message).toBe(`${section}.${key} must be an integer from ${min} to ${max}${unit} (got ${shown})`);
    },
  );

  it.each(INTEGER_KEYS)('[config-one-loader] %s.%s takes its bounds as integers, underscores too', (section, key, min, max) => {
    for (const n of [min, max]) {
      const written = n.toLocaleString('en-US').replaceAll(',', '_');
      const config = strataConfigFromText(`[${section}]\n${key} = ${written}\n`)[section];
      // [context] also wants summary_max_tokens below max_tokens; only the integer rule is asked here.
      const integerRule = isConfigError(config) ? config.issues.filter((i) => i.message.includes('must be an integer')) : [];
      expect(integerRule).toEqual([]);
      if (!isConfigError(config)) expect(Object.values(config)).toContain(n);
    }
  });

  it('[config-one-loader] an integer too large for any number names its key, and never refuses the other sections', () => {
    const config = strataConfigFromText('[tools]\nmax_read_bytes = 99999999999999999999\n\n[sessions]\ndirs = ["a"]\n\n[providers]\nturn_timeout_ms = 2000\n');
    expect(config.tools).toMatchObject({ issues: [{ key: 'tools.max_read_bytes' }] });
    expect(config.sessions).toEqual({ dirs: ['a'] });
    expect(config.providers).toEqual({ turnTimeoutMs: 2000 });
  });

  it.each<[string, string, number | string]>([
    ['the lower bound', '10', 10],
    ['the upper bound', '20', 20],
    ['an underscored integer', '1_5', 15],
    ['below', '9', 's.k must be an integer from 10 to 20 seconds (got 9)'],
    ['above', '21', 's.k must be an integer from 10 to 20 seconds (got 21)'],
    ['a float with an integral value', '15.0', 's.k must be an integer from 10 to 20 seconds (got 15.0)'],
    ['a string of digits', '"15"', 's.k must be an integer from 10 to 20 seconds (got "15")'],
    ['hexadecimal', '0x0f', 15],
  ])('[config-one-loader] integer(): %s', (_name, value, expected) => {
    expect(outcome(value, (r) => r.integer('k', { min: 10, max: 20, unit: 'seconds' }))).toBe(expected);
  });

  it.each<[string, string, boolean | string]>([
    ['true', 'true', true],
    ['false', 'false', false],
    ['a string', '"true"', 's.k must be true or false (got "true")'],
    ['a number', '1', 's.k must be true or false (got 1)'],
  ])('[config-one-loader] boolean(): %s', (_name, value, expected) => {
    expect(outcome(value, (r) => r.boolean('k'))).toBe(expected);
  });

  it.each<[string, string, string]>([
    ['one of the values', '"b"', 'b'],
    ['another case', '"B"', 's.k must be "a", "b" or "c" (got "B")'],
    ['a number', '2', 's.k must be "a", "b" or "c" (got 2)'],
  ])('[config-one-loader] oneOf(): %s', (_name, value, expected) => {
    expect(outcome(value, (r) => r.oneOf('k', ['a', 'b', 'c'] as const))).toBe(expected);
  });

  it.each<[string, string, string]>([
    ['a string it accepts', '"x/y"', 'x/y'],
    ['a string it does not', '"  "', 's.k must be a path (got "  ")'],
    ['a list', '["x"]', 's.k must be a path (got ["x"])'],
  ])('[config-one-loader] string(): %s', (_name, value, expected) => {
    expect(outcome(value, (r) => r.string('k', 'a path', (s) => s.trim() !== ''))).toBe(expected);
  });

  it.each<[string, string, string[] | string]>([
    ['an empty list', '[]', []],
    ['strings it accepts', '["a", "b"]', ['a', 'b']],
    ['too many', '["a", "b", "c"]', 's.k must hold at most 2 entries (got 3 entries)'],
    ['an entry it does not accept', '["a", ""]', 's.k must be a list of names (got ["a", ""])'],
    ['an entry that is not a string', '["a", 1]', 's.k must be a list of names (got ["a", 1])'],
    ['not a list', '"a"', 's.k must be a list of names (got "a")'],
  ])('[config-one-loader] stringList(): %s', (_name, value, expected) => {
    expect(outcome(value, (r) => r.stringList('k', 'a list of names', 2, (s) => s !== ''))).toEqual(expected);
  });

  it('[config-one-loader] a missing section is undefined, a section that is not a table is refused, unknown keys are refused listing the known ones', () => {
    expect(SectionReader.open(toml('[other]\nk = 1\n'), 's', ['k'])).toBeUndefined();
    const notTable = SectionReader.open(toml('s = [1, 2]\n'), 's', ['k']);
    expect(notTable).toBeInstanceOf(ConfigError);
    expect((notTable as ConfigError).issues).toEqual([{ key: 's', message: 's must be a table (got [1, 2])' }]);
    for (const [keys, expected] of [
      [['a'], 'expected a'],
      [['a', 'b'], 'expected a or b'],
      [['a', 'b', 'c'], 'expected a, b or c'],
    ] as const) {
      const r = reader('z = 1\na = 2', keys);
      expect(r.finish('ok')).toMatchObject({ message: `s.z is not a known key, ${expected} (got 1)` });
    }
  });

  it('[config-one-loader] finish gives every issue in the order found; refused() tells a key and its entries apart from the others', () => {
    const r = reader('a = 1\nb = "x"', ['a', 'b', 'c']);
    expect(r.finish('ok')).toBe('ok');
    r.refuse('b[1]', 'must be short', 'x');
    r.refuse('a', 'must be even', 1n);
    expect([r.refused('b'), r.refused('a'), r.refused('c'), r.refused('b[')]).toEqual([true, true, false, false]);
    const err = r.finish('ok');
    expect(err).toBeInstanceOf(ConfigError);
    expect(err).toMatchObject({ kind: 'config_error', message: 's.b[1] must be short (got "x"); s.a must be even (got 1)', issues: [{ key: 's.b[1]' }, { key: 's.a' }] });
  });

  it('[config-one-loader] a ConfigError read from a file starts every message with the file and keeps its keys and lines', () => {
    const parsed = parseStrataToml('[s]\nk = = 1\n');
    if (!isConfigError(parsed)) throw new Error('expected invalid TOML');
    expect(parsed.file).toBeUndefined();
    const inFile = parsed.inFile('/ws/strata.toml');
    expect(inFile.file).toBe('/ws/strata.toml');
    expect(inFile.issues).toEqual([{ key: undefined, line: 2, message: expect.stringMatching(/^\/ws\/strata\.toml: invalid TOML at line 2, column \d+: /) }]);
    expect(inFile.message).toBe(inFile.issues[0]?.message);
    expect(isConfigError(inFile)).toBe(true);
    expect(isConfigError({ kind: 'config_error', message: 'x', issues: [] })).toBe(false);
  });
});
