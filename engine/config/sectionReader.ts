import { ConfigError, type ConfigIssue } from './ConfigError';
import { showTomlValue } from './showTomlValue';
import type { StrataToml } from './strataToml';

/** Inclusive bounds of an integer key; a value outside them is refused, never clamped. `max` is at most `Number.MAX_SAFE_INTEGER`. */
export interface IntegerRange {
  readonly min: number;
  readonly max: number;
  /** Said after the bounds: `from 1000 to 3600000 milliseconds`. */
  readonly unit?: string;
}

/** `a`, `a or b`, `a, b or c`. */
const either = (names: readonly string[]): string => (names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`);
const isTable = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);

/**
 * The field readers every `strata.toml` section uses, so each kind of value has one rule in every
 * section: an integer is a TOML integer (never `1.5`, `1000.0`, `"10"` or `true`) within its range,
 * a huge one refused like any other out-of-range value; a string, a list or a boolean is exactly
 * that TOML type. A reader returns the value, or undefined when the key is absent or refused; a
 * refusal is kept as an issue naming `<section>.<key>` and quoting what was written, and `finish`
 * turns a section with any issue into a `ConfigError`, so a refused section is never half used.
 */
export class SectionReader {
  private readonly issues: ConfigIssue[] = [];

  private constructor(
    /** The section's name, the first part of every key it reports. */
    readonly name: string,
    private readonly table: Readonly<Record<string, unknown>>,
  ) {}

  /**
   * The reader of section `name`, or undefined when the file has none (its defaults apply). A
   * section that is not a table is refused; every key not in `keys` is an issue listing the known
   * ones, because a misspelt key would otherwise be a silent no-op.
   */
  static open(toml: StrataToml, name: string, keys: readonly string[]): SectionReader | ConfigError | undefined {
    const table = toml[name];
    if (table === undefined) return undefined;
    if (!isTable(table)) return new ConfigError([{ key: name, message: `${name} must be a table (got ${showTomlValue(table)})` }]);
    const reader = new SectionReader(name, table);
    for (const [key, value] of Object.entries(table)) {
      if (!keys.includes(key)) reader.refuse(key, `is not a known key, expected ${either(keys)}`, value);
    }
    return reader;
  }

  has(key: string): boolean {
    return Object.hasOwn(this.table, key);
  }

  /** The value as parsed, for a section's own rules. */
  raw(key: string): unknown {
    return this.table[key];
  }

  /** Refuse `key` (`allow[2]` for an entry): `<section>.<key> <rule> (got <shown>)`, `shown` the value as written unless given. */
  refuse(key: string, rule: string, value: unknown, shown: string = showTomlValue(value)): void {
    this.issues.push({ key: `${this.name}.${key}`, message: `${this.name}.${key} ${rule} (got ${shown})` });
  }

  /** Whether `key` or one of its entries (`key[i]`) was refused. */
  refused(key: string): boolean {
    const full = `${this.name}.${key}`;
    return this.issues.some((i) => i.key === full || i.key?.startsWith(`${full}[`) === true);
  }

  integer(key: string, range: IntegerRange): number | undefined {
    if (!this.has(key)) return undefined;
    const value = this.table[key];
    if (typeof value === 'bigint' && value >= BigInt(range.min) && value <= BigInt(range.max)) return Number(value);
    this.refuse(key, `must be an integer from ${range.min} to ${range.max}${range.unit ? ` ${range.unit}` : ''}`, value);
    return undefined;
  }

  boolean(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const value = this.table[key];
    if (typeof value === 'boolean') return value;
    this.refuse(key, 'must be true or false', value);
    return undefined;
  }

  /** One of `values`, exactly as written (case included). */
  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    if (!this.has(key)) return undefined;
    const value = this.table[key];
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
    this.refuse(key, `must be ${either(values.map((v) => JSON.stringify(v)))}`, value);
    return undefined;
  }

  /** A string `accept` takes; `what` names it in the refusal (`must be <what>`). */
  string(key: string, what: string, accept: (s: string) => boolean = () => true): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.table[key];
    if (typeof value === 'string' && accept(value)) return value;
    this.refuse(key, `must be ${what}`, value);
    return undefined;
  }

  /** An array of at most `maxEntries` values, each checked by the section (`what` names the array). */
  list(key: string, what: string, maxEntries: number): readonly unknown[] | undefined {
    if (!this.has(key)) return undefined;
    const value = this.table[key];
    if (!Array.isArray(value)) this.refuse(key, `must be ${what}`, value);
    else if (value.length > maxEntries) this.refuse(key, `must hold at most ${maxEntries} entries`, value, `${value.length} entries`);
    else return value;
    return undefined;
  }

  /** A list of at most `maxEntries` strings, each one `accept` takes; any other entry refuses the whole list. */
  stringList(key: string, what: string, maxEntries: number, accept: (s: string) => boolean = () => true): string[] | undefined {
    const entries = this.list(key, what, maxEntries);
    if (entries === undefined) return undefined;
    if (entries.every((e): e is string => typeof e === 'string' && accept(e))) return [...entries];
    this.refuse(key, `must be ${what}`, entries);
    return undefined;
  }

  /** `config` when nothing was refused, else one `ConfigError` with every issue, in the order found. */
  finish<T>(config: T): T | ConfigError {
    return this.issues.length > 0 ? new ConfigError([...this.issues]) : config;
  }
}
