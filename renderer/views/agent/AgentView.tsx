import { useRef, useState, type KeyboardEvent } from 'react';
import { useStrata } from '../../controller/StoreContext';
import { selectSelectedSessionId } from '../../store/sessions/sessionsSelectors';
import { AgentPane } from '../AgentPane';
import { SessionCompare } from '../attach/SessionCompare';
import { AgentControls } from './AgentControls';
import { ContextInspector } from './ContextInspector';
import { NewConstraint } from './NewConstraint';
import { GenerationDiff } from './GenerationDiff';
import { GenerationTimeline } from './GenerationTimeline';
import { PromptView } from './PromptView';
import { ReadOnlyNote } from './ReadOnlyNote';
import { RunBar } from './RunBar';
import '../agent.css';

const TABS = [
  { id: 'context', label: 'Context' },
  { id: 'prompt', label: 'Prompt' },
  { id: 'diff', label: 'Diff' },
  { id: 'timeline', label: 'Timeline' },
] as const;
type TabId = (typeof TABS)[number]['id'];

/**
 * The agent view: the run bar, the selected agent with its controls, and its generations. An agent
 * of an attached session is watched, not driven: a read-only note replaces the run bar and the
 * agent's controls, and its session's "Real vs Strata" sits above the inspector.
 */
export function AgentView() {
  const agentId = useStrata((s) => s.ui.selectedAgentId);
  const sessionId = useStrata(selectSelectedSessionId);
  const [tab, setTab] = useState<TabId>('context');
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const onKey = (e: KeyboardEvent, i: number) => {
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = TABS[(to + TABS.length) % TABS.length] as (typeof TABS)[number];
    setTab(next.id);
    refs.current[TABS.indexOf(next)]?.focus();
  };
  return (
    <div className="agent-view">
      {sessionId ? <ReadOnlyNote sessionId={sessionId} /> : <RunBar />}
      <AgentPane
        actions={agentId && !sessionId ? <AgentControls agentId={agentId} /> : null}
        inspector={
          <>
        {sessionId && <SessionCompare sessionId={sessionId} />}
        <div className="subtabs" role="tablist" aria-label="Agent inspector">
          {TABS.map((t, i) => (
            <button
              key={t.id}
              ref={(el) => {
                refs.current[i] = el;
              }}
              role="tab"
              id={`subtab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`subpanel-${t.id}`}
              tabIndex={tab === t.id ? 0 : -1}
              className={`subtabs__tab${tab === t.id ? ' subtabs__tab--on' : ''}`}
              onClick={() => setTab(t.id)}
              onKeyDown={(e) => onKey(e, i)}
            >
              {t.label}
            </button>
          ))}
        </div>
        <div className="subpanel" role="tabpanel" id={`subpanel-${tab}`} aria-labelledby={`subtab-${tab}`}>
          {tab === 'context' && (
            <>
              <NewConstraint />
              <ContextInspector />
            </>
          )}
          {tab === 'prompt' && <PromptView />}
          {tab === 'diff' && <GenerationDiff />}
          {tab === 'timeline' && <GenerationTimeline onOpen={setTab} />}
        </div>
          </>
        }
      />
    </div>
  );
}
