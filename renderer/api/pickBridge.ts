import type { StrataBridge } from '../../engine/contract';
import { type ConnectionStatus, createWsBridge, wsTokenFromLocation, wsUrlFromLocation } from './wsBridge';

export type Transport = 'electron' | 'websocket';

/**
 * Electron's `window.strata` when the preload exposed it, else the WebSocket of the web host
 * that served this page. Views never see which.
 */
export function pickBridge(win: Window & { strata?: StrataBridge }, onStatus: (s: ConnectionStatus) => void): { bridge: StrataBridge; transport: Transport } {
  if (win.strata) {
    onStatus('open');
    return { bridge: win.strata, transport: 'electron' };
  }
  return { bridge: createWsBridge({ url: wsUrlFromLocation(win.location), token: wsTokenFromLocation(win.location), onStatus }), transport: 'websocket' };
}
