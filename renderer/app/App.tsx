import { AgentView } from '../views/agent/AgentView';
import { AgentTree } from '../views/AgentTree';
import { AttachSessions } from '../views/attach/AttachSessions';
import { ChartsView } from '../views/ChartsView';
import { EventsView } from '../views/EventsView';
import { LogStrip } from '../views/LogStrip';
import { CompareView } from '../views/compare/CompareView';
import { MemoryView } from '../views/memory/MemoryView';
import { SkillsView } from '../views/skills/SkillsView';
import { useStrata } from '../controller/StoreContext';
import { ConnectionBanner } from './ConnectionBanner';
import { TopBar } from './TopBar';
import { ViewTabs } from './ViewTabs';
import type { ViewName } from '../store/ui/uiActions';
import { isDisconnected } from '../store/connection/connectionSlice';

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

/** The control room shell: header, attached sessions and the agent tree on the left, the selected agent, the event log. */
export function App() {
  const error = useStrata((s) => s.connection.error);
  const view = useStrata((s) => s.ui.view);
  const offline = useStrata((s) => isDisconnected(s.connection));
  return (
    <div className={`shell${offline ? ' shell--offline' : ''}`}>
      <TopBar />
      <ConnectionBanner />
      {error && !offline && (
        <div className="banner banner--error" role="alert">
          {error}
        </div>
      )}
      <aside className="rail">
        <AttachSessions />
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
