import type { WireCall, WireReply } from '../../../../engine/contract';

/**
 * A WebSocket stand-in the test drives by hand: `accept()` opens it, `reply()`/`push()` deliver
 * frames, `drop()` closes it from the server side. Each `fakeWebSocketClass()` has its own list of
 * sockets, so tests never share state.
 */
export interface FakeSocket {
  readonly url: string;
  /** The subprotocols the client offered. */
  readonly protocols: string[];
  readyState: number;
  /** Frames the client sent, parsed. */
  readonly calls: WireCall[];
  accept(): void;
  reply(id: number | null, envelope: { ok: true; value: unknown } | { ok: false; error: { code: 'not_found'; message: string } }): void;
  push(event: Extract<WireReply, { kind: 'event' }>['event']): void;
  raw(data: string): void;
  drop(): void;
}

export function fakeWebSocketClass(): { WebSocketImpl: typeof WebSocket; sockets: FakeSocket[] } {
  const sockets: FakeSocket[] = [];

  class FakeWebSocket implements FakeSocket {
    static readonly CONNECTING = 0;
    static readonly OPEN = 1;
    static readonly CLOSING = 2;
    static readonly CLOSED = 3;
    readonly CONNECTING = 0;
    readonly OPEN = 1;
    readonly CLOSING = 2;
    readonly CLOSED = 3;

    readyState = FakeWebSocket.CONNECTING;
    readonly calls: WireCall[] = [];
    onopen: ((ev: Event) => void) | null = null;
    onmessage: ((ev: MessageEvent) => void) | null = null;
    onclose: ((ev: CloseEvent) => void) | null = null;

    readonly protocols: string[];

    constructor(
      readonly url: string,
      protocols?: string | string[],
    ) {
      this.protocols = protocols === undefined ? [] : typeof protocols === 'string' ? [protocols] : [...protocols];
      sockets.push(this);
    }

    send(data: string): void {
      if (this.readyState !== FakeWebSocket.OPEN) throw new Error(`send on a socket in state ${this.readyState}`);
      this.calls.push(JSON.parse(data) as WireCall);
    }

    close(): void {
      if (this.readyState === FakeWebSocket.CLOSED) return;
      this.readyState = FakeWebSocket.CLOSED;
      this.onclose?.(new Event('close') as CloseEvent);
    }

    accept(): void {
      this.readyState = FakeWebSocket.OPEN;
      this.onopen?.(new Event('open'));
    }

    reply(id: number | null, envelope: Parameters<FakeSocket['reply']>[1]): void {
      this.raw(JSON.stringify({ kind: 'result', id, envelope } satisfies WireReply));
    }

    push(event: Parameters<FakeSocket['push']>[0]): void {
      this.raw(JSON.stringify({ kind: 'event', event } satisfies WireReply));
    }

    raw(data: string): void {
      this.onmessage?.(new MessageEvent('message', { data }));
    }

    drop(): void {
      this.close();
    }
  }

  return { WebSocketImpl: FakeWebSocket as unknown as typeof WebSocket, sockets };
}
