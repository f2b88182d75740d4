import { selectTreeRows } from '../store/selectors';
import { useController, useDispatch, useStrata } from '../app/StoreContext';
import { StatusBadge } from '../components/StatusBadge';
import { UtilizationBar } from '../components/UtilizationBar';
import { percent } from '../components/format';

/** The live agent tree: primary -> workers -> probes/reviewers, with status and utilization. */
export function AgentTree() {
  const rows = useStrata(selectTreeRows);
  const selected = useStrata((s) => s.ui.selectedAgentId);
  const filter = useStrata((s) => s.ui.filter);
  const dispatch = useDispatch();
  const controller = useController();

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
      <ul className="tree__list" role="tree">
        {rows.map(({ agent, depth, hasChildren, collapsed }) => (
          <li
            key={agent.agentId}
            role="treeitem"
            aria-level={depth + 1}
            aria-selected={agent.agentId === selected}
            aria-expanded={hasChildren ? !collapsed : undefined}
            data-agent-id={agent.agentId}
            className={`tree__row${agent.agentId === selected ? ' tree__row--selected' : ''}`}
            style={{ paddingLeft: `${0.5 + depth * 1.1}rem` }}
          >
            <button
              className="tree__twisty"
              aria-label={collapsed ? `Expand ${agent.agentId}` : `Collapse ${agent.agentId}`}
              disabled={!hasChildren}
              onClick={() => dispatch({ type: 'tree.toggle', agentId: agent.agentId })}
            >
              {hasChildren ? (collapsed ? '▸' : '▾') : ''}
            </button>
            <button className="tree__select" onClick={() => void controller.select(agent.agentId)} title={agent.task}>
              <span className="tree__id">{agent.agentId}</span>
              <span className="tree__role">{agent.role}</span>
              <StatusBadge status={agent.status} />
              <span className="tree__gen" title="generation">g{agent.generation}</span>
              <UtilizationBar used={agent.tokens} budget={agent.budget} compact />
              <span className="tree__hit" title="provider cache hit rate">{percent(agent.cacheHitRate)}</span>
            </button>
          </li>
        ))}
      </ul>
      {rows.length === 0 && <p className="empty">{filter ? 'No agent matches the filter.' : 'No agents in this workspace yet.'}</p>}
    </nav>
  );
}
