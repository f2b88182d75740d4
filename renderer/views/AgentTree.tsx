import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AgentStatus } from '../../engine/contract';
import { selectStatusCounts, selectTreeRows, type TreeRow } from '../store/agents/agentsSelectors';
import { type AgentFlag, agentFlags, type FlagCause, flagsKey, flagsTitle, selectRunRunning } from '../store/agents/agentFlags';
import { openFlagCause } from '../controller/openFlagCause';
import { useNow } from './useNow';
import { selectStatusFilter } from '../store/ui/uiSelectors';
import { useController, useDispatch, useStrata } from '../controller/StoreContext';
import { MiddleEllipsis } from '../components/MiddleEllipsis';
import { StatusBadge } from '../components/StatusBadge';
import { UtilizationBar } from '../components/UtilizationBar';
import { percent } from '../components/format';
import { visibleWindow } from './visibleWindow';
import './agent.css';

/** Height of one tree row in pixels (two lines: the figures, then the task). Rows never wrap. */
export const TREE_ROW_HEIGHT = 44;
/** Viewport height assumed before the first measurement (and in a DOM without layout). */
const FALLBACK_VIEWPORT = 640;
const STATUSES: AgentStatus[] = ['running', 'waiting', 'paused', 'refreshing', 'done', 'failed'];
const selectCounts = selectStatusCounts(STATUSES);
/** How often the tree looks again for stalled agents (a stall is counted in tens of seconds). */
const STALL_CHECK_MS = 5_000;
const NO_FLAGS: AgentFlag[] = [];

/**
 * The live agent tree: primary -> workers -> probes/reviewers, with status, generation,
 * utilization and hit rate. Only the rows in view (plus a few) are in the DOM, so hundreds of
 * agents scroll smoothly; the tree keeps WAI-ARIA keyboard use (arrows, Home, End, Enter).
 */
export function AgentTree() {
  const rows = useStrata(selectTreeRows);
  const selected = useStrata((s) => s.ui.selectedAgentId);
  const filter = useStrata((s) => s.ui.filter);
  const statuses = useStrata(selectStatusFilter);
  const counts = useStrata(useShallow(selectCounts));
  const dispatch = useDispatch();
  const controller = useController();
  const runRunning = useStrata(selectRunRunning);
  const now = useNow(STALL_CHECK_MS);
  // Stable handlers, so a row re-renders only when its own agent or place changes.
  const onToggle = useCallback((agentId: string) => dispatch({ type: 'tree.toggle', agentId }), [dispatch]);
  const onSelect = useCallback(
    (agentId: string) => {
      setActiveId(agentId);
      void controller.select(agentId);
    },
    [controller],
  );
  const onFlag = useCallback(
    (cause: FlagCause) => {
      setActiveId(cause.agentId);
      void openFlagCause(controller, dispatch, cause);
    },
    [controller, dispatch],
  );
  const flagsOf = (agent: TreeRow['agent']): AgentFlag[] => {
    const flags = agentFlags(agent, { runRunning, now });
    return flags.length === 0 ? NO_FLAGS : flags;
  };

  const viewport = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(FALLBACK_VIEWPORT);
  const [activeId, setActiveId] = useState<string | null>(null);
  const focusPending = useRef(false);

  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const measure = () => setHeight(el.clientHeight > 0 ? el.clientHeight : FALLBACK_VIEWPORT);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const activeIndex = Math.max(0, rows.findIndex((r) => r.agent.agentId === (activeId ?? selected)));
  const active = rows[activeIndex];
  const { start, end } = visibleWindow({ count: rows.length, rowHeight: TREE_ROW_HEIGHT, scrollTop, height, overscan: 6 });

  // After a key moved the active row, focus it once it is rendered.
  useEffect(() => {
    if (!focusPending.current || !active) return;
    focusPending.current = false;
    const rows = viewport.current?.querySelectorAll<HTMLElement>('[role="treeitem"]') ?? [];
    [...rows].find((el) => el.dataset.agentId === active.agent.agentId)?.focus();
  });

  const moveTo = (index: number) => {
    const row = rows[Math.min(Math.max(index, 0), rows.length - 1)];
    const el = viewport.current;
    if (!row) return;
    const i = rows.indexOf(row);
    if (el) {
      const top = i * TREE_ROW_HEIGHT;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + TREE_ROW_HEIGHT > el.scrollTop + height) el.scrollTop = top + TREE_ROW_HEIGHT - height;
      setScrollTop(el.scrollTop);
    }
    focusPending.current = true;
    setActiveId(row.agent.agentId);
  };

  const onKey = (e: KeyboardEvent) => {
    if (!active) return;
    const parentIndex = () => rows.findIndex((r) => r.agent.agentId === active.agent.parent);
    switch (e.key) {
      case 'ArrowDown':
        moveTo(activeIndex + 1);
        break;
      case 'ArrowUp':
        moveTo(activeIndex - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(rows.length - 1);
        break;
      case 'PageDown':
        moveTo(activeIndex + Math.max(1, Math.floor(height / TREE_ROW_HEIGHT) - 1));
        break;
      case 'PageUp':
        moveTo(activeIndex - Math.max(1, Math.floor(height / TREE_ROW_HEIGHT) - 1));
        break;
      case 'ArrowRight':
        if (active.hasChildren && active.collapsed) dispatch({ type: 'tree.toggle', agentId: active.agent.agentId });
        else if (active.hasChildren) moveTo(activeIndex + 1);
        break;
      case 'ArrowLeft':
        if (active.hasChildren && !active.collapsed) dispatch({ type: 'tree.toggle', agentId: active.agent.agentId });
        else if (parentIndex() >= 0) moveTo(parentIndex());
        break;
      case 'Enter':
      case ' ':
        void controller.select(active.agent.agentId);
        break;
      case 'f': {
        // The first (worst) flag's cause, as a click on it would.
        const first = flagsOf(active.agent)[0];
        if (!first) return;
        onFlag(first.cause);
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  };

  const toggleStatus = (st: AgentStatus) =>
    dispatch({ type: 'tree.statusFilter', statuses: statuses.includes(st) ? statuses.filter((x) => x !== st) : [...statuses, st] });
  const filtering = filter.trim() !== '' || statuses.length > 0;

  return (
    <nav className="tree" aria-label="Agents">
      <input
        className="tree__filter"
        type="search"
        placeholder="Filter agents"
        aria-label="Filter agents"
        value={filter}
        onChange={(e) => dispatch({ type: 'tree.filter', text: e.target.value })}
      />
      <div className="tree__statuses" role="group" aria-label="Filter by status">
        {STATUSES.map((st, i) => (
          <button key={st} className={`chip status--${st}`} aria-pressed={statuses.includes(st)} onClick={() => toggleStatus(st)} title={`Show ${st} agents`}>
            {st} <span className="chip__count">{counts[i]}</span>
          </button>
        ))}
        {statuses.length > 0 && (
          <button className="chip chip--clear" onClick={() => dispatch({ type: 'tree.statusFilter', statuses: [] })}>
            all
          </button>
        )}
      </div>
      {/* The same columns as each row's first line; agent.css narrows them with the rail (never past its edge). */}
      <div className="tree__head" role="group" aria-label="Tree columns">
        <span className="tree__col tree__col--agent" title="Agent id">
          agent
        </span>
        <span className="tree__col tree__col--role" title="Role">
          role
        </span>
        <span className="tree__col tree__col--status" title="Status">
          status
        </span>
        <span className="tree__col tree__col--gen" title="Context generation number">
          gen
        </span>
        <span className="tree__col tree__col--ctx" title="Tokens in context, as a percent of the agent's engine budget (what Strata packs; not the provider's window)">
          <span className="tree__col-long">context %</span>
          <span className="tree__col-short">ctx %</span>
        </span>
        <span className="tree__col tree__col--hit" title="Provider cache hit rate: CacheRead / (Input + CacheRead + CacheWrite), percent">
          hit %
        </span>
      </div>
      <div className="tree__viewport" ref={viewport} onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}>
        <ul className="tree__list" role="tree" aria-label="Agent tree" style={{ height: rows.length * TREE_ROW_HEIGHT }} onKeyDown={onKey}>
          {rows.slice(start, end).map((row, k) => (
            <TreeItem
              key={row.agent.agentId}
              row={row}
              top={(start + k) * TREE_ROW_HEIGHT}
              selected={row.agent.agentId === selected}
              active={row === active}
              onFocus={setActiveId}
              onToggle={onToggle}
              onSelect={onSelect}
              flags={flagsOf(row.agent)}
              onFlag={onFlag}
            />
          ))}
        </ul>
        {rows.length === 0 && <p className="empty">{filtering ? 'No agent matches the filter.' : 'No agents in this workspace yet.'}</p>}
      </div>
    </nav>
  );
}

interface TreeItemProps {
  row: TreeRow;
  top: number;
  selected: boolean;
  active: boolean;
  onFocus(agentId: string): void;
  onToggle(agentId: string): void;
  onSelect(agentId: string): void;
  /** What is wrong with the agent (see agentFlags), worst first. */
  flags: AgentFlag[];
  onFlag(cause: FlagCause): void;
}

/** Rows are rebuilt whenever any agent changes; a row whose agent and place did not change keeps its render. */
const sameItem = (a: TreeItemProps, b: TreeItemProps) =>
  a.row.agent === b.row.agent &&
  a.row.depth === b.row.depth &&
  a.row.hasChildren === b.row.hasChildren &&
  a.row.collapsed === b.row.collapsed &&
  a.top === b.top &&
  a.selected === b.selected &&
  a.active === b.active &&
  a.onFocus === b.onFocus &&
  a.onToggle === b.onToggle &&
  a.onSelect === b.onSelect &&
  a.onFlag === b.onFlag &&
  (a.flags === b.flags || flagsKey(a.flags) === flagsKey(b.flags));

const TreeItem = memo(function TreeItem(p: TreeItemProps) {
  const { agent, depth, hasChildren, collapsed } = p.row;
  const flagged = p.flags.length > 0;
  const flagText = flagged ? `, flagged: ${p.flags.map((f) => f.label).join(', ')}` : '';
  return (
    <li
      role="treeitem"
      aria-level={depth + 1}
      aria-selected={p.selected}
      aria-expanded={hasChildren ? !collapsed : undefined}
      aria-label={`${agent.agentId}, ${agent.role}, ${agent.status}, generation ${agent.generation}${agent.sessionId ? `, live session ${agent.sessionId}, read-only` : ''}${flagText}`}
      data-agent-id={agent.agentId}
      data-status={agent.status}
      data-flags={flagged ? p.flags.map((f) => f.kind).join(' ') : undefined}
      tabIndex={p.active ? 0 : -1}
      onFocus={(e) => {
        if (e.target === e.currentTarget) p.onFocus(agent.agentId);
      }}
      className={`tree__row${p.selected ? ' tree__row--selected' : ''}${flagged ? ' tree__row--flagged' : ''}`}
      style={{ top: p.top, height: TREE_ROW_HEIGHT, '--depth': depth } as CSSProperties}
    >
      <button
        className="tree__twisty"
        tabIndex={-1}
        aria-label={collapsed ? `Expand ${agent.agentId}` : `Collapse ${agent.agentId}`}
        disabled={!hasChildren}
        onClick={() => p.onToggle(agent.agentId)}
      >
        {hasChildren ? (collapsed ? '▸' : '▾') : ''}
      </button>
      <button className="tree__select" tabIndex={-1} onClick={() => p.onSelect(agent.agentId)} title={flagged ? `${agent.task}\n\n${flagsTitle(p.flags)}` : agent.task}>
        <span className="tree__line">
          {agent.sessionId ? (
            <span className="tree__id">
              <span className="tree__live" title={`Agent of attached session ${agent.sessionId}: watched, read-only`}>
                live
              </span>
              <MiddleEllipsis text={agent.agentId} />
            </span>
          ) : (
            <MiddleEllipsis className="tree__id" text={agent.agentId} />
          )}
          <span className="tree__role">{agent.role}</span>
          <StatusBadge status={agent.status} />
          <span className="tree__gen" title="generation">
            g{agent.generation}
          </span>
          <UtilizationBar used={agent.tokens} budget={agent.budget} compact label={agent.recorded ? "Strata's replay context against the replay budget" : undefined} />
          <span className="tree__hit" title={agent.recorded ? `${agent.recorded.client ?? 'the recording agent'}'s provider cache hit rate (real)` : 'provider cache hit rate'}>
            {percent(agent.cacheHitRate)}
          </span>
        </span>
        <span className="tree__task" style={flagged ? { paddingRight: flagsWidth(p.flags) } : undefined}>
          {/* Shown only where the rail is too narrow for the role's own column. */}
          <span className="tree__task-role">{agent.role} · </span>
          {agent.task}
        </span>
      </button>
      {flagged && (
        <span className="tree__flags" role="group" aria-label={`Flags of ${agent.agentId}`}>
          {p.flags.map((f) => (
            <button key={f.kind} type="button" tabIndex={-1} className={`tree__flag tree__flag--${f.kind}`} data-flag={f.kind} title={`${f.detail}\nClick to open the cause.`} onClick={() => p.onFlag(f.cause)}>
              {f.label}
            </button>
          ))}
        </span>
      )}
    </li>
  );
}, sameItem);

/** Room the flag chips take on the task line, so the task's ellipsis ends before them. */
const flagsWidth = (flags: readonly AgentFlag[]): string => `${flags.reduce((w, f) => w + f.label.length * 0.42 + 1.1, 0).toFixed(1)}rem`;
