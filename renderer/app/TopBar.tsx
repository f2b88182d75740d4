import { useShallow } from 'zustand/react/shallow';
import { percent } from '../components/format';
import { selectTotals } from '../store/agents/agentsSelectors';
import { useDispatch, useStrata } from '../controller/StoreContext';

/**
 * The header: workspace, connection and live totals. Its own component because the totals change
 * with every agent update; in the shell they re-rendered every view on every frame under load.
 */
export function TopBar() {
  const connection = useStrata((s) => s.connection);
  const totals = useStrata(useShallow(selectTotals));
  const railShown = useStrata((s) => !s.ui.layout.railCollapsed);
  const dispatch = useDispatch();
  return (
    <header className="topbar">
      <button type="button" className="topbar__btn" aria-pressed={railShown} aria-controls="rail" onClick={() => dispatch({ type: 'layout.set', layout: { railCollapsed: railShown } })} title={`${railShown ? 'Hide' : 'Show'} the agent rail ([)`}>
        Agents
      </button>
      <strong className="brand">Strata</strong>
      <span className="topbar__ws">{connection.health ? `workspace: ${connection.health.workspace.name}` : 'connecting…'}</span>
      <span className={`conn conn--${connection.status}`} data-connection={connection.status}>
        {connection.status === 'open' ? (connection.transport === 'electron' ? 'desktop' : 'web') : connection.status}
      </span>
      <span className="topbar__spacer" />
      <span>
        {totals.running}/{totals.agents} running
      </span>
      <span title="workspace provider cache hit rate">hit {percent(totals.hitRate)}</span>
      <button type="button" className="topbar__btn" aria-haspopup="dialog" onClick={() => dispatch({ type: 'shortcuts.dialog', open: true })} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts">
        ?
      </button>
    </header>
  );
}
