/**
 * Header handling of the gateway (`[gateway-passthrough]`, `[gateway-key-private]`). Headers travel
 * as Node's raw lists (`[name, value, name, value, …]`), so names keep their case, repeats and order.
 */

/** Connection-level headers (RFC 9110 §7.6.1, and the proxy ones): they belong to one hop, never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade', 'proxy-authorization', 'proxy-authenticate']);

/** Headers that carry a credential: never handed to the pure side, so nothing it records can hold a key. */
const CREDENTIALS = new Set(['x-api-key', 'api-key', 'authorization', 'proxy-authorization', 'cookie']);

/** The hop-by-hop names of one message: the fixed ones plus those its `Connection` header lists. */
function hopByHop(raw: readonly string[]): Set<string> {
  const names = new Set(HOP_BY_HOP);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== 'connection') continue;
    for (const token of raw[i + 1]!.split(',')) if (token.trim()) names.add(token.trim().toLowerCase());
  }
  return names;
}

/**
 * The headers sent upstream: the client's, in order and case, without the hop-by-hop ones and
 * `expect` (the gateway already read the whole body); `host` becomes the upstream's and
 * `content-length` the length of the body sent (in the client's place, or added when a body is sent
 * without one, e.g. after chunked encoding). A rewritten body goes unencoded: its
 * `content-encoding` is left out.
 */
export function upstreamRequestHeaders(raw: readonly string[], upstreamHost: string, bodyLength: number, rewritten: boolean): string[] {
  const skip = hopByHop(raw);
  const out: string[] = [];
  let hostSent = false;
  let lengthSent = false;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    const lower = name.toLowerCase();
    if (skip.has(lower) || lower === 'expect') continue;
    if (lower === 'host') {
      if (!hostSent) out.push(name, upstreamHost);
      hostSent = true;
    } else if (lower === 'content-length') {
      if (!lengthSent) out.push(name, String(bodyLength));
      lengthSent = true;
    } else if (!(rewritten && lower === 'content-encoding')) out.push(name, raw[i + 1]!);
  }
  if (!hostSent) out.unshift('Host', upstreamHost);
  if (!lengthSent && bodyLength > 0) out.push('Content-Length', String(bodyLength));
  return out;
}

/** The upstream's response headers for the client: all of them but the hop-by-hop ones (Node frames the client's connection itself). */
export function clientResponseHeaders(raw: readonly string[]): string[] {
  const skip = hopByHop(raw);
  const out: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) if (!skip.has(raw[i]!.toLowerCase())) out.push(raw[i]!, raw[i + 1]!);
  return out;
}

/**
 * Lower-case headers as a record, repeats joined with `, `; `omit` names left out. `omitCredentials`
 * leaves out every header that carries a key (`[gateway-key-private]`).
 */
export function headerRecord(raw: readonly string[], options: { omitCredentials?: boolean; omit?: readonly string[] } = {}): Record<string, string> {
  // No prototype: a header named `__proto__` is a header like any other.
  const out: Record<string, string> = Object.create(null);
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if ((options.omitCredentials && CREDENTIALS.has(name)) || options.omit?.includes(name)) continue;
    out[name] = name in out ? `${out[name]}, ${raw[i + 1]}` : raw[i + 1]!;
  }
  return out;
}
