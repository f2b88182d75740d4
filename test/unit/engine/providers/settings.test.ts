import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { resolveProviderSettings, SecretKey } from '../../../../engine/providers/settings';

describe('[providers] provider settings', () => {
  it('[providers] settings beat the environment, which beats nothing; the view says keyPresent, never the key', () => {
    const env = { OPENAI_API_KEY: 'sk-env-openai', OPENAI_BASE_URL: 'https://proxy.example/v1', ANTHROPIC_BASE_URL: '  ' };
    const resolved = resolveProviderSettings(env, { openai: { model: 'gpt-5' }, anthropic: { apiKey: 'sk-ant-settings', baseUrl: 'https://a.example', model: 'claude' } });
    expect(resolved.openai.view).toEqual({ provider: 'openai', baseUrl: 'https://proxy.example/v1', model: 'gpt-5', keyPresent: true });
    expect(resolved.openai.key?.reveal()).toBe('sk-env-openai');
    expect(resolved.anthropic.view).toEqual({ provider: 'anthropic', baseUrl: 'https://a.example', model: 'claude', keyPresent: true });
    expect(resolved.anthropic.key?.reveal()).toBe('sk-ant-settings');

    const empty = resolveProviderSettings({ ANTHROPIC_API_KEY: '' }, {});
    expect(empty.anthropic).toEqual({ view: { provider: 'anthropic', baseUrl: null, model: null, keyPresent: false }, key: null });
  });

  it('[providers] a SecretKey never serialises, prints or inspects its value', () => {
    const resolved = resolveProviderSettings({ OPENAI_API_KEY: 'sk-very-secret' });
    const key = resolved.openai.key!;
    expect(JSON.stringify(resolved)).not.toContain('sk-very-secret');
    expect(String(key)).toBe('[redacted]');
    expect(`${key}`).toBe('[redacted]');
    expect(inspect(resolved, { depth: 10 })).not.toContain('sk-very-secret');
    expect(Object.keys(key)).toEqual([]);
    expect(key.reveal()).toBe('sk-very-secret');
    expect(resolveProviderSettings({}, { openai: { apiKey: key } }).openai.key).toBe(key);
    expect(() => new SecretKey('')).toThrow();
  });
});
