import { useShallow } from 'zustand/react/shallow';
import { percent } from '../components/format';
import { selectTotals } from '../store/agents/agentsSelectors';
import { useStrata } from '../controller/StoreContext';

/**
 * The header: workspace, connection and live totals. Its own component because the totals change
 * with every agent update; in the shell they re-rendered every view on every frame under load.
 */
export function TopBar() {
  const connection = useStrata((s) => s.connection);
  const totals = useStrata(useShallow(selectTotals));
  return (
    <header className="topbar">
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
    </header>
  );
}
