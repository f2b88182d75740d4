import { isConfigError } from '../config/ConfigError';
import { StrataError } from '../contract';
import { createAnthropicProvider } from '../node/providers/anthropicProvider';
import { createOpenAIProvider } from '../node/providers/openaiProvider';
import { ProviderError, type Provider } from '../providers/Provider';
import { attemptTimeoutMs } from '../providers/providersConfig';
import type { RetryInfo } from '../node/providers/retry';
import { resolveProviderSettings } from '../providers/settings';
import type { ToolBox } from '../runtime/Driver';
import { loadStrataConfig } from '../node/workspace/loadStrataConfig';
import type { RunManagerDeps } from './RunManager';
import { workspaceToolbox } from './workspaceToolbox';

/**
 * Retries and backoff of a model run's provider calls; the time of a turn is `[providers]
 * turn_timeout_ms` of strata.toml, and each attempt waits at most half of it (`[provider-time-limit]`).
 */
const CALLS = { maxRetries: 4, retryBaseMs: 500 } as const;
const TIME_LIMIT_NAME = '[providers] turn_timeout_ms in strata.toml';

/**
 * What a workspace needs for model runs: providers from the environment (`OPENAI_API_KEY`,
 * `OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`) bounded by its `strata.toml
 * [providers]`, and the workspace's tools with its `[tools]`. A missing key or a broken section is
 * a clear error when a run starts; the settings view never carries a key.
 */
export function modelRunDeps(workspaceDir: string, env: Readonly<Record<string, string | undefined>> = process.env): Pick<RunManagerDeps, 'makeProvider' | 'makeToolbox' | 'providerSettings' | 'toolItems'> {
  const settings = () => resolveProviderSettings(env, {});
  let items: ReturnType<typeof workspaceToolbox>['toolItems'] | undefined;
  return {
    providerSettings: () => {
      const s = settings();
      return [s.openai.view, s.anthropic.view];
    },
    makeProvider: (provider, model, onRetry?: (info: RetryInfo) => void): Provider => {
      const resolved = settings()[provider];
      if (!resolved.key) throw new StrataError('unavailable', `No ${provider} API key: set ${provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'} and restart Strata.`);
      const limits = loadStrataConfig(workspaceDir).providers;
      if (isConfigError(limits)) throw new StrataError('invalid_args', limits.message);
      try {
        const time = { turnTimeoutMs: limits.turnTimeoutMs, timeoutMs: attemptTimeoutMs(limits.turnTimeoutMs), timeLimitName: TIME_LIMIT_NAME };
        const options = { apiKey: resolved.key, baseURL: resolved.view.baseUrl, model, ...CALLS, ...time, ...(onRetry ? { onRetry } : {}) };
        return provider === 'openai' ? createOpenAIProvider(options) : createAnthropicProvider(options);
      } catch (err) {
        throw new StrataError('unavailable', err instanceof ProviderError ? err.message : `the ${provider} provider could not be created`);
      }
    },
    makeToolbox: (): ToolBox => {
      const config = loadStrataConfig(workspaceDir).tools;
      if (isConfigError(config)) throw new StrataError('invalid_args', config.message);
      const made = workspaceToolbox(workspaceDir, config);
      items = made.toolItems;
      return made.toolbox;
    },
    toolItems: (...args) => items?.(...args) ?? [],
  };
}
