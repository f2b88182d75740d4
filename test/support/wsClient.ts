import WebSocket from 'ws';
import { TOKEN_PROTOCOL_PREFIX, WIRE_PROTOCOL, type StrataEvent, type WireReply } from '../../engine/contract';
import { ASYNC_WAIT_MS } from './testTimeouts.mjs';

/** The subprotocols a client offers to present `token`, as the control room's page does. */
export const wsProtocols = (token: string): string[] => [WIRE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token}`];

/** A test client for the headless host's WebSocket: send frames, await replies and events. */
export class WsTestClient {
  readonly events: StrataEvent[] = [];
  private readonly replies: WireReply[] = [];
  private waiters: (() => void)[] = [];
  private nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const reply = JSON.parse(String(data)) as WireReply;
      if (reply.kind === 'event') this.events.push(reply.event);
      else this.replies.push(reply);
      for (const w of this.waiters.splice(0)) w();
    });
  }

  /** Open a socket to `url`; with `token`, present it as the page does (`wsProtocols`). */
  static connect(url: string, headers: Record<string, string> = {}, token?: string): Promise<WsTestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, token === undefined ? [] : wsProtocols(token), { headers });
      ws.once('open', () => resolve(new WsTestClient(ws)));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Send a raw frame and wait for the reply with `id` (null: the next reply without an id). */
  async raw(frame: string | Buffer, id: number | null): Promise<WireReply & { kind: 'result' }> {
    this.ws.send(frame);
    return this.waitFor(() => this.replies.find((r) => r.kind === 'result' && r.id === id) as (WireReply & { kind: 'result' }) | undefined);
  }

  call(command: string, args?: unknown) {
    const id = this.nextId++;
    return this.raw(JSON.stringify({ id, command, args }), id).then((r) => r.envelope);
  }

  async waitFor<T>(find: () => T | undefined, timeoutMs = ASYNC_WAIT_MS): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline) throw new Error('timed out waiting for a WebSocket message');
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 50);
      });
    }
  }

  close(): void {
    this.ws.close();
  }
}
