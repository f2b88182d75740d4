import { useShallow } from 'zustand/react/shallow';
import { percent } from '../components/format';
import { selectTotals } from '../store/selectors';
import { AgentPane } from '../views/AgentPane';
import { AgentTree } from '../views/AgentTree';
import { LogStrip } from '../views/LogStrip';
import { useStrata } from './StoreContext';

/** The control room shell: header, agent tree on the left, the selected agent, the event log. */
export function App() {
  const connection = useStrata((s) => s.connection);
  const totals = useStrata(useShallow(selectTotals));
  return (
    <div className="shell">
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
      {connection.error && (
        <div className="banner banner--error" role="alert">
          {connection.error}
        </div>
      )}
      <aside className="rail">
        <AgentTree />
      </aside>
      <main className="main">
        <AgentPane />
      </main>
      <LogStrip />
    </div>
  );
}
