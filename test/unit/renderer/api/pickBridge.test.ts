import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StrataBridge } from '../../../../engine/contract';
import { pickBridge } from '../../../../renderer/api/pickBridge';
import type { ConnectionStatus } from '../../../../renderer/api/wsBridge';
import { fakeWebSocketClass } from './FakeWebSocket';

const fakeWindow = (over: { strata?: StrataBridge }) =>
  ({ location: { protocol: 'http:', host: '127.0.0.1:4100', search: '?token=tok' }, ...over }) as unknown as Window & { strata?: StrataBridge };

describe('pickBridge', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("uses Electron's window.strata when present and reports it open", () => {
    const strata = { health: vi.fn() } as unknown as StrataBridge;
    const statuses: ConnectionStatus[] = [];
    const picked = pickBridge(fakeWindow({ strata }), (s) => statuses.push(s));
    expect(picked).toEqual({ bridge: strata, transport: 'electron', reconnect: expect.any(Function) });
    expect(statuses).toEqual(['open']);
  });

  it('otherwise opens a WebSocket to the host that served the page', () => {
    const { WebSocketImpl, sockets } = fakeWebSocketClass();
    vi.stubGlobal('WebSocket', WebSocketImpl);
    const statuses: ConnectionStatus[] = [];
    const picked = pickBridge(fakeWindow({}), (s) => statuses.push(s));
    expect(picked.transport).toBe('websocket');
    expect(sockets.map((s) => [s.url, s.protocols])).toEqual([['ws://127.0.0.1:4100/ws', ['strata.v1', 'strata.token.tok']]]);
    sockets[0]?.accept();
    expect(statuses).toEqual(['connecting', 'open']);
    (picked.bridge as unknown as { close(): void }).close();
  });

  it('[host-lost] a failed attempt asks the page\'s own address over HTTP: a host that answers refused the token', async () => {
    const { WebSocketImpl, sockets } = fakeWebSocketClass();
    vi.stubGlobal('WebSocket', WebSocketImpl);
    const fetch = vi.fn(async () => ({ ok: true }) as Response);
    const statuses: ConnectionStatus[] = [];
    const win = { location: { protocol: 'http:', host: '127.0.0.1:4100', origin: 'http://127.0.0.1:4100', search: '?token=old' }, fetch } as unknown as Window;
    const picked = pickBridge(win, (s) => statuses.push(s));
    sockets[0]?.drop();
    await vi.waitFor(() => expect(statuses).toEqual(['connecting', 'refused']));
    expect(fetch).toHaveBeenCalledWith('http://127.0.0.1:4100/', { method: 'HEAD', cache: 'no-store' });
    picked.reconnect();
    expect(sockets).toHaveLength(2);
    (picked.bridge as unknown as { close(): void }).close();
  });
});
