import { parse, TomlError } from 'smol-toml';
import { ConfigError } from './ConfigError';

/**
 * A parsed `strata.toml`: its top-level keys, each section (`context`, `providers`, `tools`,
 * `sessions`) a table for its own reader. Integers are bigints and floats are numbers, so `1000`
 * and `1000.0` stay told apart and an integer too large for a number still reaches its reader, which
 * names the key, instead of failing the whole file.
 */
export type StrataToml = Readonly<Record<string, unknown>>;

/**
 * The one parse of `strata.toml` text (pure). Invariant: every section is read from this one parse
 * with one set of number rules; invalid TOML is one issue naming its line and column, and refuses
 * every section alike. Sections nobody reads are left alone, as they always were: only the keys
 * inside a known section are checked (`sectionReader`).
 */
export function parseStrataToml(text: string): StrataToml | ConfigError {
  try {
    return parse(text, { integersAsBigInt: true });
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '');
    return new ConfigError([{ key: undefined, line: err.line, message: `invalid TOML at line ${err.line}, column ${err.column}: ${reason}` }]);
  }
}
