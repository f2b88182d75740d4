import { StrataError } from '../contract';
import { createAnthropicProvider } from '../providers/anthropicProvider';
import { createOpenAIProvider } from '../providers/openaiProvider';
import { ProviderError, type Provider } from '../providers/Provider';
import { resolveProviderSettings } from '../providers/settings';
import type { ToolBox } from '../runtime/Driver';
import { isToolsConfigError } from '../runtime/tools/toolsConfig';
import { loadToolsConfig } from './loadToolsConfig';
import type { RunManagerDeps } from './RunManager';
import { workspaceToolbox } from './workspaceToolbox';

/** Timeout, retries and backoff of a model run's provider calls. */
const CALLS = { timeoutMs: 120_000, maxRetries: 4, retryBaseMs: 500 } as const;

/**
 * What a workspace needs for model runs: providers from the environment (`OPENAI_API_KEY`,
 * `OPENAI_BASE_URL`, `ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`) and the workspace's tools with its
 * `strata.toml [tools]`. A missing key or a broken `[tools]` is a clear error when a run starts;
 * the settings view never carries a key.
 */
export function modelRunDeps(workspaceDir: string, env: Readonly<Record<string, string | undefined>> = process.env): Pick<RunManagerDeps, 'makeProvider' | 'makeToolbox' | 'providerSettings' | 'toolItems'> {
  const settings = () => resolveProviderSettings(env, {});
  let items: ReturnType<typeof workspaceToolbox>['toolItems'] | undefined;
  return {
    providerSettings: () => {
      const s = settings();
      return [s.openai.view, s.anthropic.view];
    },
    makeProvider: (provider, model): Provider => {
      const resolved = settings()[provider];
      if (!resolved.key) throw new StrataError('unavailable', `No ${provider} API key: set ${provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY'} and restart Strata.`);
      try {
        const options = { apiKey: resolved.key, baseURL: resolved.view.baseUrl, model, ...CALLS };
        return provider === 'openai' ? createOpenAIProvider(options) : createAnthropicProvider(options);
      } catch (err) {
        throw new StrataError('unavailable', err instanceof ProviderError ? err.message : `the ${provider} provider could not be created`);
      }
    },
    makeToolbox: (): ToolBox => {
      const config = loadToolsConfig(workspaceDir);
      if (isToolsConfigError(config)) throw new StrataError('invalid_args', config.message);
      const made = workspaceToolbox(workspaceDir, config);
      items = made.toolItems;
      return made.toolbox;
    },
    toolItems: (...args) => items?.(...args) ?? [],
  };
}
