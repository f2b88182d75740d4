import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from '../api/createApi';
import { pickBridge } from '../api/pickBridge';
import { createStrataStore } from '../store/store';
import { App } from './App';
import { createController } from './controller';
import { ControllerContext, StoreContext } from './StoreContext';
import './styles.css';

const store = createStrataStore();
const { dispatch } = store.getState();
let opened = 0;
let controller: ReturnType<typeof createController> | undefined;

const { bridge, transport } = pickBridge(window, (status) => {
  dispatch({ type: 'connection.status', status });
  // After a dropped WebSocket reconnects, reload the snapshot: events may have been missed.
  if (status === 'open' && opened++ > 0) void controller?.sync();
});
dispatch({ type: 'connection.status', status: store.getState().connection.status, transport });
controller = createController(createApi(bridge), store);
void controller.sync();

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <StoreContext.Provider value={store}>
      <ControllerContext.Provider value={controller}>
        <App />
      </ControllerContext.Provider>
    </StoreContext.Provider>
  </StrictMode>,
);
