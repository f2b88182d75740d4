import { type Agent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import type { GatewayProvider } from '../../gateway/types';
import { type ResponseDecoder, responseDecoder } from './contentEncoding';
import { clientResponseHeaders, headerRecord } from './gatewayHeaders';
import type { GuardedSink } from './guardedSink';
import { providerError } from './providerError';

/** One configured upstream: its base URL and the keep-alive agent its connections come from. */
export interface Upstream {
  url: URL;
  agent: Agent;
}

export interface ExchangeOptions {
  upstream: Upstream;
  provider: GatewayProvider;
  method: string;
  /** The path on the upstream (`upstreamPath`). */
  path: string;
  /** Raw header list for the upstream (`upstreamRequestHeaders`). */
  headers: string[];
  body: Uint8Array;
  clientRes: ServerResponse;
  sink: GuardedSink;
  /** Longest silence of the upstream connection before the exchange is given up as `timeout`. */
  idleTimeoutMs: number;
  /** Runs once (on a later turn of the event loop) when the body was written upstream, or when the upstream failed before that. */
  onSent: () => void;
}

/** Errors of a pooled connection the upstream closed while it sat idle: the request never reached it, so it is sent once more. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE']);

/**
 * `[gateway-stream]` `[gateway-faults]` Sends one request upstream and passes the answer to the
 * client as it comes: status, status text and headers (hop-by-hop ones apart) at once, then each
 * chunk written as it arrives, the sink getting decoded copies. Faults reach the client as the
 * upstream made them: an error status is just an answer; a stream cut before its end is cut for
 * the client too (its socket destroyed after what arrived, never a clean end), and so is an idle
 * timeout; an upstream that cannot be reached (refused, unknown host, TLS failure) gets a 502 in
 * the provider's shape; a client that leaves aborts the upstream request. The sink ends once, with
 * `cut stream`, `timeout`, `client closed` or `upstream unreachable: …`, or without error.
 */
export function forwardExchange(o: ExchangeOptions): void {
  const { clientRes, sink } = o;
  let finished = false;
  let decoder: ResponseDecoder | undefined;
  let sentCalled = false;
  let current: ReturnType<typeof httpRequest> | undefined;

  const sent = () => {
    if (sentCalled) return;
    sentCalled = true;
    setImmediate(o.onSent);
  };
  const finish = (error?: string) => {
    if (finished) return;
    finished = true;
    const d = decoder;
    if (!d) return sink.end(error);
    let done = false;
    const close = () => {
      if (done) return;
      done = true;
      sink.end(error);
    };
    d.output.once('end', close).once('error', close).once('close', close);
    d.input.end();
  };
  if (clientRes.destroyed) {
    // The client left while its body was read or decoded: nothing goes upstream.
    sent();
    return finish('client closed');
  }
  clientRes.on('close', () => {
    if (clientRes.writableFinished) return;
    finish('client closed');
    current?.destroy();
  });

  const attempt = (mayRetry: boolean) => {
    const url = o.upstream.url;
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const up = send({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: url.port || undefined,
      method: o.method,
      path: o.path,
      headers: o.headers,
      agent: o.upstream.agent,
    });
    current = up;
    let connected = false;
    let timedOut = false;
    let responded = false;
    up.on('socket', (socket: Socket) => {
      if (!socket.connecting) connected = true;
      else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => (connected = true));
    });
    up.setTimeout(o.idleTimeoutMs, () => {
      timedOut = true;
      up.destroy(new Error('upstream idle timeout'));
    });
    up.on('error', (error: NodeJS.ErrnoException) => {
      if (responded || finished) return;
      if (mayRetry && up.reusedSocket && STALE_SOCKET.has(error.code ?? '')) return attempt(false);
      sent();
      if (timedOut || connected) {
        finish(timedOut ? 'timeout' : 'cut stream');
        clientRes.destroy();
        return;
      }
      const reply = providerError(o.provider, 'upstream_unreachable', `The Strata gateway could not reach the ${o.provider} upstream ${url.origin}: ${error.message}`);
      clientRes.writeHead(reply.status, { 'content-type': reply.contentType, 'content-length': Buffer.byteLength(reply.body) });
      clientRes.end(reply.body);
      finish(`upstream unreachable: ${error.message}`);
    });
    up.on('response', (upRes: IncomingMessage) => {
      responded = true;
      if (finished) return void upRes.destroy();
      relay(upRes, () => timedOut);
    });
    up.end(Buffer.from(o.body.buffer, o.body.byteOffset, o.body.byteLength), sent);
  };

  const relay = (upRes: IncomingMessage, timedOut: () => boolean) => {
    const status = upRes.statusCode ?? 502;
    try {
      clientRes.writeHead(status, upRes.statusMessage, clientResponseHeaders(upRes.rawHeaders));
      clientRes.flushHeaders();
    } catch (error) {
      // A head Node's client parsed but its server will not write: the client sees the answer cut before it began.
      finish(`bad upstream response head: ${(error as Error).message}`);
      upRes.destroy();
      clientRes.destroy();
      return;
    }
    sink.start(status, headerRecord(upRes.rawHeaders));
    const d = responseDecoder(upRes.headers['content-encoding']);
    decoder = d;
    if (d) {
      d.output.on('data', (chunk: Buffer) => sink.chunk(chunk));
      // A copy that does not decode stops feeding the sink; the client's bytes are not affected.
      d.output.on('error', () => {
        if (decoder === d) decoder = undefined;
      });
    }
    upRes.on('data', (chunk: Buffer) => {
      if (!clientRes.write(chunk)) {
        upRes.pause();
        clientRes.once('drain', () => upRes.resume());
      }
      if (decoder) decoder.input.write(chunk);
      else if (!d) sink.chunk(chunk);
    });
    upRes.on('end', () => {
      clientRes.end();
      finish();
    });
    // The close below says what happened; an 'error' without a listener would throw.
    upRes.on('error', () => undefined);
    upRes.on('close', () => {
      if (upRes.complete) return;
      finish(timedOut() ? 'timeout' : 'cut stream');
      clientRes.destroy();
    });
  };

  attempt(true);
}
