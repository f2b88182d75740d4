import type { ForwardedExchange } from './forwardingProxy';
import type { ServerCall } from './scriptedServer';

/**
 * What the client sent beside what the upstream received, per call (SPEC
 * `[real-client-proxy-seam]`): the n-th request of one method and route (`POST /v1/messages`,
 * query left out) the tap saw is paired with the n-th the server saw. Exact for a client that
 * sends one call at a time (the long tasks); a request that never reached the server pairs with
 * nothing.
 */

export interface ExchangePair {
  route: string;
  sent: ForwardedExchange;
  received: ServerCall | undefined;
}

/** Per-connection headers (RFC 9110 §7.6.1): each hop sets its own, so a proxy passes on every header but these. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** The headers that must arrive as the client sent them (lower-case names). */
export const endToEndHeaders = (headers: Readonly<Record<string, string>>): Record<string, string> => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

const routeOf = (method: string, path: string) => `${method} ${path.split('?')[0]!}`;

export function exchangePairs(sent: readonly ForwardedExchange[], received: readonly ServerCall[]): ExchangePair[] {
  const queues = new Map<string, ServerCall[]>();
  for (const c of received) {
    const route = routeOf(c.method, c.path);
    queues.set(route, [...(queues.get(route) ?? []), c]);
  }
  return sent.map((s) => {
    const route = routeOf(s.method, s.path);
    return { route, sent: s, received: queues.get(route)?.shift() };
  });
}
