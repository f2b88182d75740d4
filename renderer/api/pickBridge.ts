import type { StrataBridge } from '../../engine/contract';
import { type ConnectionInfo, type ConnectionStatus, createWsBridge, wsTokenFromLocation, wsUrlFromLocation } from './wsBridge';

export type Transport = 'electron' | 'websocket';

/**
 * Electron's `window.strata` when the preload exposed it, else the WebSocket of the web host
 * that served this page. Views never see which.
 */
export function pickBridge(
  win: Window & { strata?: StrataBridge },
  onStatus: (s: ConnectionStatus, info?: ConnectionInfo) => void,
): { bridge: StrataBridge; transport: Transport; reconnect: () => void } {
  if (win.strata) {
    onStatus('open');
    return { bridge: win.strata, transport: 'electron', reconnect: () => win.location.reload() };
  }
  const bridge = createWsBridge({ url: wsUrlFromLocation(win.location), token: wsTokenFromLocation(win.location), onStatus, probe: () => hostAnswers(win) });
  return { bridge, transport: 'websocket', reconnect: () => bridge.reconnect() };
}

/** True when the host that served this page answers plain HTTP (its page needs no token). */
async function hostAnswers(win: Window): Promise<boolean> {
  try {
    const res = await win.fetch(`${win.location.origin}/`, { method: 'HEAD', cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}
