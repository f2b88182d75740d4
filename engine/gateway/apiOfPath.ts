import type { GatewayApi, GatewayProvider } from './types';

/**
 * The wire API a request speaks, from its method and path (`[gateway-api-of-path]`). The query is
 * ignored (Claude Code sends `/v1/messages?beta=true`) and so is one trailing slash; the OpenAI
 * paths are accepted with and without `/v1`, since a Codex `base_url` may or may not include it.
 * Anything else is not a model call: `undefined`, and the server passes it through unobserved.
 */
export function apiOfPath(method: string, path: string): GatewayApi | undefined {
  if (method.toUpperCase() !== 'POST') return undefined;
  const query = path.indexOf('?');
  let bare = query === -1 ? path : path.slice(0, query);
  if (bare.length > 1 && bare.endsWith('/')) bare = bare.slice(0, -1);
  switch (bare) {
    case '/v1/messages':
      return 'anthropic-messages';
    case '/v1/messages/count_tokens':
      return 'anthropic-count-tokens';
    case '/v1/responses':
    case '/responses':
      return 'openai-responses';
    case '/v1/chat/completions':
    case '/chat/completions':
      return 'openai-chat';
    default:
      return undefined;
  }
}

/** The provider that serves an API. */
export function providerOf(api: GatewayApi): GatewayProvider {
  return api === 'anthropic-messages' || api === 'anthropic-count-tokens' ? 'anthropic' : 'openai';
}
