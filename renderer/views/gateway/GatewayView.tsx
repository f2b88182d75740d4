import { useEffect } from 'react';
import { useController, useDispatch, useStrata } from '../../controller/StoreContext';
import { selectGatewayNotice } from '../../store/gateway/gatewaySelectors';
import { GatewaySessionDetail } from './GatewaySessionDetail';
import { GatewaySessions } from './GatewaySessions';
import { GatewayStatusPanel } from './GatewayStatusPanel';
import './gateway.css';

/** The local gateway (issue 23): its status and toggle, the sessions it saw, and the selected session's threads, calls and generations. */
export function GatewayView() {
  const controller = useController();
  const notice = useStrata(selectGatewayNotice);
  const dispatch = useDispatch();
  useEffect(() => {
    void controller.loadGateway();
  }, [controller]);
  return (
    <div className="gw">
      <GatewayStatusPanel />
      {notice && (
        <p className={`gw__notice gw__notice--${notice.status}`} role={notice.status === 'error' ? 'alert' : 'status'}>
          <span>{notice.message}</span>
          <button type="button" className="link" onClick={() => dispatch({ type: 'gateway.dismissNotice' })} aria-label="Dismiss the message">
            ✕
          </button>
        </p>
      )}
      <GatewaySessions />
      <GatewaySessionDetail />
    </div>
  );
}
