import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from '../api/createApi';
import { pickBridge } from '../api/pickBridge';
import { createStrataStore } from '../store/store';
import { initialRootState } from '../store/reduce';
import { persistLayout, withStoredLayout } from './layoutStorage';
import { App } from './App';
import { createController } from '../controller/controller';
import { ControllerContext, StoreContext } from '../controller/StoreContext';
import './styles.css';

/** The page's storage, or none where it is refused (a sandboxed frame throws on the property). */
const storage = (() => {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
})();
// The panes' sizes and the hidden event kinds come back as they were left (the web page and the desktop app alike).
const store = createStrataStore(withStoredLayout(initialRootState, storage));
persistLayout(store, storage);
const { dispatch } = store.getState();
let controller: ReturnType<typeof createController> | undefined;

// (Re)load the workspace whenever the connection opens: after a dropped WebSocket reconnects,
// events may have been missed.
const { bridge, transport, reconnect } = pickBridge(window, (status, info) => {
  dispatch({ type: 'connection.status', status, ...(info?.retryInMs !== undefined ? { retryInMs: info.retryInMs } : {}) });
  if (status === 'open') void controller?.sync();
});
dispatch({ type: 'connection.status', status: store.getState().connection.status, transport, ...(transport === 'websocket' ? { address: window.location.host } : {}) });
controller = createController(createApi(bridge), store, { reconnect });
// Electron's bridge is open before the controller exists; the WebSocket opens later and syncs then.
if (transport === 'electron') void controller.sync();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <ControllerContext.Provider value={controller}>
        <App />
      </ControllerContext.Provider>
    </StoreContext.Provider>
  </StrictMode>,
);
