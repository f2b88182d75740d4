import { describe, expect, it } from 'vitest';
import { strataConfigFromText } from '../../../../engine/node/workspace/loadStrataConfig';
import { DEFAULT_PROVIDERS_CONFIG, attemptTimeoutMs, PROVIDERS_CONFIG_BOUNDS } from '../../../../engine/providers/providersConfig';

const parseProvidersConfig = (text: string) => strataConfigFromText(text).providers;

describe('[provider-time-limit] the [providers] section of strata.toml', () => {
  it('[provider-time-limit] reads turn_timeout_ms, and gives the default without the file section or key', () => {
    expect(parseProvidersConfig('[providers]\nturn_timeout_ms = 90000\n')).toEqual({ turnTimeoutMs: 90_000 });
    expect(parseProvidersConfig('[tools]\nallow = []\n')).toEqual(DEFAULT_PROVIDERS_CONFIG);
    expect(parseProvidersConfig('[providers]\n')).toEqual(DEFAULT_PROVIDERS_CONFIG);
    expect(DEFAULT_PROVIDERS_CONFIG.turnTimeoutMs).toBe(300_000);
  });

  it('[provider-time-limit] an attempt waits at most half of the limit for a response, so a silent provider is tried twice within it', () => {
    expect(attemptTimeoutMs(300_000)).toBe(150_000);
    expect(attemptTimeoutMs(1001)).toBe(501);
  });

  it.each([
    ['a value below the bound', `turn_timeout_ms = ${PROVIDERS_CONFIG_BOUNDS.turn_timeout_ms.min - 1}`, /providers\.turn_timeout_ms must be an integer from 1000 to 3600000 milliseconds \(got 999\)/],
    ['a value above the bound', 'turn_timeout_ms = 3600001', /from 1000 to 3600000 milliseconds \(got 3600001\)/],
    ['a float', 'turn_timeout_ms = 1500.5', /must be an integer.*\(got 1500\.5\)/],
    ['a string', 'turn_timeout_ms = "300s"', /must be an integer.*\(got "300s"\)/],
    ['an unknown key', 'timeout_ms = 5000', /providers\.timeout_ms is not a known key, expected turn_timeout_ms/],
  ])('[provider-time-limit] refuses %s, naming the key and what was written', (_what, line, message) => {
    const out = parseProvidersConfig(`[providers]\n${line}\n`);
    expect(out).toMatchObject({ kind: 'config_error' });
    expect('message' in out ? out.message : '').toMatch(message);
  });

  it('[provider-time-limit] refuses invalid TOML with its line, and a [providers] that is not a table', () => {
    expect(parseProvidersConfig('[providers\nturn_timeout_ms = 1')).toMatchObject({ kind: 'config_error', message: expect.stringMatching(/invalid TOML at line 1/) });
    expect(parseProvidersConfig('providers = 5')).toMatchObject({ kind: 'config_error', message: expect.stringMatching(/providers must be a table/) });
  });
});
