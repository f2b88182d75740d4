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
    expect(picked).toEqual({ bridge: strata, transport: 'electron' });
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
});
