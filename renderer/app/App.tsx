import { useShallow } from 'zustand/react/shallow';
import { percent } from '../components/format';
import { selectTotals } from '../store/selectors';
import { AgentView } from '../views/agent/AgentView';
import { AgentTree } from '../views/AgentTree';
import { ChartsView } from '../views/ChartsView';
import { EventsView } from '../views/EventsView';
import { LogStrip } from '../views/LogStrip';
import { CompareView } from '../views/compare/CompareView';
import { MemoryView } from '../views/memory/MemoryView';
import { SkillsView } from '../views/skills/SkillsView';
import { useStrata } from './StoreContext';
import { ViewTabs } from './ViewTabs';
import type { ViewName } from '../store/uiSlice';

/**
 * The view shown in the main area for each tab. Views register here; a view not built yet shows
 * what it will hold, so the tab is never blank.
 */
const MAIN_VIEWS: Record<ViewName, () => React.ReactNode> = {
  agent: () => <AgentView />,
  charts: () => <ChartsView />,
  compare: () => <CompareView />,
  memory: () => <MemoryView />,
  skills: () => <SkillsView />,
  events: () => <EventsView />,
};

/** The control room shell: header, agent tree on the left, the selected agent, the event log. */
export function App() {
  const connection = useStrata((s) => s.connection);
  const totals = useStrata(useShallow(selectTotals));
  const view = useStrata((s) => s.ui.view);
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
        <ViewTabs />
        <div className="view" role="tabpanel" id={`view-${view}`} aria-labelledby={`tab-${view}`}>
          {MAIN_VIEWS[view]()}
        </div>
      </main>
      <LogStrip />
    </div>
  );
}
