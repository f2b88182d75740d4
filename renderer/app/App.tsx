import { AgentView } from '../views/agent/AgentView';
import { AgentTree } from '../views/AgentTree';
import { AttachSessions } from '../views/attach/AttachSessions';
import { ChartsView } from '../views/ChartsView';
import { EventsView } from '../views/EventsView';
import { GatewayView } from '../views/gateway/GatewayView';
import { LogStrip } from '../views/LogStrip';
import { CompareView } from '../views/compare/CompareView';
import { MemoryView } from '../views/memory/MemoryView';
import { SkillsView } from '../views/skills/SkillsView';
import { useDispatch, useStrata } from '../controller/StoreContext';
import { ConnectionBanner } from './ConnectionBanner';
import { TopBar } from './TopBar';
import { ViewTabs } from './ViewTabs';
import type { ViewName } from '../store/ui/uiActions';
import { isDisconnected } from '../store/connection/connectionSlice';
import { useRef, type CSSProperties } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { PaneResizer } from './PaneResizer';
import { clampRail, clampStrip, RAIL_MIN_PX, STRIP_MIN_PX } from './layoutStorage';
import { ShortcutsDialog, useShortcuts } from './Shortcuts';

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
  gateway: () => <GatewayView />,
};

/** The control room shell: header, attached sessions and the agent tree on the left, the selected agent, the event log. */
export function App() {
  const error = useStrata((s) => s.connection.error);
  const view = useStrata((s) => s.ui.view);
  const offline = useStrata((s) => isDisconnected(s.connection));
  const layout = useStrata(useShallow((s) => s.ui.layout));
  const dispatch = useDispatch();
  const rail = useRef<HTMLElement>(null);
  const strip = useRef<HTMLDivElement>(null);
  useShortcuts();
  const width = typeof window === 'undefined' ? Infinity : window.innerWidth;
  const height = typeof window === 'undefined' ? Infinity : window.innerHeight;
  const style = { ...(layout.railWidth !== null ? { '--rail-w': `${clampRail(layout.railWidth, width)}px` } : {}) } as CSSProperties;
  return (
    <div className={`shell${offline ? ' shell--offline' : ''}${layout.railCollapsed ? ' shell--rail-collapsed' : ''}`} style={style}>
      <TopBar />
      <ConnectionBanner />
      {error && !offline && (
        <div className="banner banner--error" role="alert">
          {error}
        </div>
      )}
      <aside className="rail" id="rail" aria-label="Agents" ref={rail} hidden={layout.railCollapsed}>
        <AttachSessions />
        <AgentTree />
      </aside>
      {!layout.railCollapsed && (
        <PaneResizer
          orientation="vertical"
          label="Resize the agent rail"
          controls="rail"
          pane={rail}
          grow={1}
          min={RAIL_MIN_PX}
          max={clampRail(Infinity, width)}
          value={layout.railWidth}
          collapsed={false}
          onResize={(px) => dispatch({ type: 'layout.set', layout: { railWidth: px } })}
          onToggle={() => dispatch({ type: 'layout.set', layout: { railCollapsed: true } })}
        />
      )}
      <main className="main">
        <ViewTabs />
        <div className="view" role="tabpanel" id={`view-${view}`} aria-labelledby={`tab-${view}`}>
          {MAIN_VIEWS[view]()}
        </div>
      </main>
      {!layout.stripCollapsed && (
        <PaneResizer
          orientation="horizontal"
          label="Resize the log strip"
          controls="log-strip"
          pane={strip}
          grow={-1}
          min={STRIP_MIN_PX}
          max={clampStrip(Infinity, height)}
          value={layout.stripHeight}
          collapsed={false}
          onResize={(px) => dispatch({ type: 'layout.set', layout: { stripHeight: px } })}
          onToggle={() => dispatch({ type: 'layout.set', layout: { stripCollapsed: true } })}
        />
      )}
      <div className="strip-slot" ref={strip}>
        <LogStrip />
      </div>
      <ShortcutsDialog />
    </div>
  );
}
