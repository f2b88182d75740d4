/** One problem with `strata.toml`. */
export interface ConfigIssue {
  /**
   * The dotted key at fault (`context.max_tokens`, `tools.allow[2]`), the section's name for a
   * section that is not a table, or undefined for the whole file (invalid TOML, a read error).
   */
  readonly key: string | undefined;
  /** 1-based line of a TOML syntax error. */
  readonly line?: number;
  /** A sentence a person can act on, naming the key and quoting what was written; starts with the file's path once the file is known. */
  readonly message: string;
}

/**
 * A refused `strata.toml` section (or the whole file): nothing of it is used. Every section's
 * reader returns this one class, so the host tells any refusal apart with one `isConfigError` and
 * every message has the same shape: `<file>: <key> <rule> (got <value>)`, joined with `; `.
 */
export class ConfigError {
  readonly kind = 'config_error';
  /** Every issue's message, joined with `; `. */
  readonly message: string;

  constructor(
    readonly issues: readonly ConfigIssue[],
    /** The file the issues are in, once known; its path then starts every message. */
    readonly file?: string,
  ) {
    this.message = issues.map((i) => i.message).join('; ');
  }

  /** The same issues, read from `file`: each message starts with its path. */
  inFile(file: string): ConfigError {
    return new ConfigError(this.issues.map((i) => ({ ...i, message: `${file}: ${i.message}` })), file);
  }
}

/** Tells a refused configuration from a usable one. */
export function isConfigError<T>(value: T | ConfigError): value is ConfigError {
  return value instanceof ConfigError;
}
