import type { ProviderSettingsView } from './Provider';

/**
 * Provider settings as the rest of the app may see them, and the API key kept apart.
 *
 * `resolveProviderSettings` merges explicit settings over the environment (`OPENAI_BASE_URL`,
 * `OPENAI_API_KEY`, `ANTHROPIC_BASE_URL`, `ANTHROPIC_API_KEY`) and returns, per provider, a
 * serialisable `view` (`keyPresent`, never the key) and the key wrapped in a `SecretKey`, whose
 * value only `reveal()` returns: `JSON.stringify`, `String()`, template literals and
 * `util.inspect` all print `[redacted]`, so even serialising the whole result leaks nothing.
 */

const REDACTED = '[redacted]';
const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom');

/** An API key that never prints or serialises its value. */
export class SecretKey {
  readonly #value: string;

  constructor(value: string) {
    if (value.length === 0) throw new Error('SecretKey: an empty key is no key');
    this.#value = value;
  }

  /** The key itself, for the SDK client only. */
  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [INSPECT](): string {
    return REDACTED;
  }
}

export type ProviderName = ProviderSettingsView['provider'];

/** What the settings file or the UI says about one provider; every field optional. */
export interface ProviderSettingsInput {
  baseUrl?: string | null;
  model?: string | null;
  /** A key typed into settings (or already wrapped); beats the environment. */
  apiKey?: string | SecretKey | null;
}

export type ProviderSettingsInputs = Partial<Record<ProviderName, ProviderSettingsInput>>;

export interface ResolvedProvider {
  /** Safe to log, persist and send to the renderer. */
  view: ProviderSettingsView;
  /** Kept apart from the view; `null` when no key was found. */
  key: SecretKey | null;
}

export type ResolvedProviderSettings = Record<ProviderName, ResolvedProvider>;

const ENV: Record<ProviderName, { baseUrl: string; apiKey: string }> = {
  openai: { baseUrl: 'OPENAI_BASE_URL', apiKey: 'OPENAI_API_KEY' },
  anthropic: { baseUrl: 'ANTHROPIC_BASE_URL', apiKey: 'ANTHROPIC_API_KEY' },
};

const nonEmpty = (value: string | null | undefined): string | null => {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed.length > 0 ? trimmed : null;
};

function resolveKey(fromSettings: string | SecretKey | null | undefined, fromEnv: string | undefined): SecretKey | null {
  if (fromSettings instanceof SecretKey) return fromSettings;
  const text = nonEmpty(fromSettings) ?? nonEmpty(fromEnv);
  return text === null ? null : new SecretKey(text);
}

/** Resolves one provider: explicit settings first, then the environment, else `null`. */
export function resolveProvider(provider: ProviderName, env: Readonly<Record<string, string | undefined>>, settings: ProviderSettingsInput = {}): ResolvedProvider {
  const names = ENV[provider];
  const key = resolveKey(settings.apiKey, env[names.apiKey]);
  return {
    view: {
      provider,
      baseUrl: nonEmpty(settings.baseUrl) ?? nonEmpty(env[names.baseUrl]),
      model: nonEmpty(settings.model),
      keyPresent: key !== null,
    },
    key,
  };
}

/** Both providers' settings: a serialisable view each, and each key kept apart in a `SecretKey`. */
export function resolveProviderSettings(env: Readonly<Record<string, string | undefined>>, settings: ProviderSettingsInputs = {}): ResolvedProviderSettings {
  return {
    openai: resolveProvider('openai', env, settings.openai),
    anthropic: resolveProvider('anthropic', env, settings.anthropic),
  };
}
