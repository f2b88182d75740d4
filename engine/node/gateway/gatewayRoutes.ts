import type { GatewayProvider } from '../../gateway/types';

/** Where a request goes and whether the pure side sees it. */
export interface GatewayRoute {
  provider: GatewayProvider;
  /** A model call the handler decides on (POST to a Messages, Responses or Chat Completions path); everything else only passes through. */
  handled: boolean;
}

const ANTHROPIC_CALLS = new Set(['/v1/messages', '/v1/messages/count_tokens']);
const OPENAI_CALLS = new Set(['/v1/responses', '/responses', '/v1/chat/completions', '/chat/completions']);

function pathnameOf(path: string): string {
  const q = path.indexOf('?');
  return q < 0 ? path : path.slice(0, q);
}

/**
 * `[gateway-routes]` The model calls go to their provider and through the handler (any query, e.g.
 * `?beta=true`); any other request passes through to Anthropic when its path is under
 * `/v1/messages` or `/v1/complete` or it carries `anthropic-version` (which Anthropic requires on
 * every call), else to OpenAI, and is never shown to the handler.
 */
export function routeOf(method: string, path: string, hasAnthropicVersion: boolean): GatewayRoute {
  const pathname = pathnameOf(path);
  const post = method === 'POST';
  if (ANTHROPIC_CALLS.has(pathname)) return { provider: 'anthropic', handled: post };
  if (OPENAI_CALLS.has(pathname)) return { provider: 'openai', handled: post };
  const anthropic = hasAnthropicVersion || pathname.startsWith('/v1/messages') || pathname.startsWith('/v1/complete');
  return { provider: anthropic ? 'anthropic' : 'openai', handled: false };
}

/** The default upstreams: the real providers, written as each provider's SDK takes its base URL. */
export const DEFAULT_UPSTREAMS: Readonly<Record<GatewayProvider, string>> = {
  anthropic: 'https://api.anthropic.com',
  openai: 'https://api.openai.com/v1',
};

/**
 * Checks an upstream base URL (http or https, no query or fragment) and returns it parsed; a bad
 * one throws a message naming the provider and the value.
 */
export function parseUpstream(provider: GatewayProvider, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`gateway: the ${provider} upstream ${JSON.stringify(value)} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`gateway: the ${provider} upstream ${JSON.stringify(value)} must be http: or https:`);
  if (url.search || url.hash || url.username || url.password) throw new Error(`gateway: the ${provider} upstream ${JSON.stringify(value)} must not carry a query, fragment or credentials`);
  return url;
}

/**
 * `[gateway-routes]` The path a client's request takes on the upstream. An upstream is what the
 * provider's own SDK takes as its base URL: Anthropic's stands for the API's root
 * (`https://api.anthropic.com`; the client's whole path is appended: `/v1/messages`), OpenAI's
 * stands for `/v1` (`https://api.openai.com/v1`; the client's path loses a leading `/v1`, so
 * `/v1/responses` and `/responses` both become `<base>/responses`). The rest of the path and the
 * query are kept byte for byte (never normalised).
 */
export function upstreamPath(base: URL, provider: GatewayProvider, path: string): string {
  const basePath = base.pathname.replace(/\/+$/, '');
  let rest = path.startsWith('/') ? path : `/${path}`;
  if (provider === 'openai' && (rest === '/v1' || rest.startsWith('/v1/') || rest.startsWith('/v1?'))) rest = rest.slice(3);
  if (!rest.startsWith('/')) rest = `/${rest}`;
  return `${basePath}${rest}`;
}
