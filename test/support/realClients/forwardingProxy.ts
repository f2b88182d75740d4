import { createHash } from 'node:crypto';
import { Agent, createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeBody, headersOf } from './scriptedServer';

/**
 * A byte-forwarding HTTP proxy on 127.0.0.1 (SPEC `[real-client-proxy-seam]`): every request goes
 * to `upstream` with its method, path, headers and body bytes unchanged, and the upstream's status,
 * headers and body come back the same way, chunk by chunk as they arrive (nothing is held back).
 * With `record`, it logs each exchange as it saw it (headers without the key, the body's length,
 * SHA-256 and parsed JSON, the response's status, length and SHA-256): in front of a proxy under
 * test it is the tap that says what the client sent and what it got back.
 */

export interface ForwardedExchange {
  index: number;
  method: string;
  /** Path with query. */
  path: string;
  /** Lower-case names; `x-api-key` and `authorization` are left out. */
  headers: Record<string, string>;
  bodyBytes: number;
  bodySha256: string;
  /** The body's JSON (content-encoding undone), the text when it is not JSON. */
  body: unknown;
  /** 0 until the upstream answered (it stays 0 when the upstream failed). */
  status: number;
  responseBytes: number;
  responseSha256: string;
}

export interface ForwardingProxy {
  origin: string;
  close(): Promise<void>;
}

const parsed = (req: IncomingMessage, raw: Buffer): unknown => {
  if (raw.length === 0) return undefined;
  const text = decodeBody(req, raw);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

export async function startForwardingProxy(o: { upstream: string; record?: ForwardedExchange[] }): Promise<ForwardingProxy> {
  const target = new URL(o.upstream);
  const agent = new Agent({ keepAlive: true });
  const server = createServer((req, res) => {
    const sent = createHash('sha256');
    const got = createHash('sha256');
    const chunks: Buffer[] = [];
    const entry: ForwardedExchange = { index: o.record?.length ?? 0, method: req.method ?? 'GET', path: req.url ?? '/', headers: headersOf(req), bodyBytes: 0, bodySha256: '', body: undefined, status: 0, responseBytes: 0, responseSha256: '' };
    o.record?.push(entry);
    const up = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent }, (upRes) => {
      entry.status = upRes.statusCode ?? 0;
      res.writeHead(entry.status, upRes.statusMessage, upRes.rawHeaders);
      res.flushHeaders();
      upRes.on('data', (chunk: Buffer) => {
        got.update(chunk);
        entry.responseBytes += chunk.length;
        res.write(chunk);
      });
      upRes.on('end', () => {
        entry.responseSha256 = got.digest('hex');
        res.end();
      });
      upRes.on('error', () => res.destroy());
    });
    up.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => {
      sent.update(chunk);
      chunks.push(chunk);
      up.write(chunk);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      Object.assign(entry, { bodyBytes: raw.length, bodySha256: sent.digest('hex'), body: o.record ? parsed(req, raw) : undefined });
      up.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}
