import type { ReactNode } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useController, useStrata } from '../controller/StoreContext';
import { StatusBadge } from '../components/StatusBadge';
import { UtilizationBar } from '../components/UtilizationBar';
import { percent, timeOfDay, tokens } from '../components/format';
import { selectChildren, selectSelectedAgent } from '../store/agents/agentsSelectors';
import { selectLog } from '../store/log/logSelectors';
import { clientName, recordedContextText, SessionAgentMeters } from './attach/SessionAgentFigures';

/** The selected agent: identity, live figures, children and its own log; `actions` go in its header, `inspector` above the log. */
export function AgentPane({ actions, inspector }: { actions?: ReactNode; inspector?: ReactNode } = {}) {
  const agent = useStrata(selectSelectedAgent);
  const children = useStrata(useShallow((s) => (agent ? selectChildren(s, agent.agentId) : [])));
  const log = useStrata(useShallow((s) => (agent ? selectLog(s, 30, agent.agentId) : [])));
  const controller = useController();

  if (!agent) return <section className="pane pane--empty">Select an agent in the tree.</section>;
  const u = agent.usage;
  return (
    <section className="pane" aria-label={`Agent ${agent.agentId}`}>
      <header className="pane__header">
        <h2>{agent.agentId}</h2>
        <span className="pane__role">{agent.role}</span>
        <StatusBadge status={agent.status} />
        <span className="pane__gen" title={agent.recorded ? "The generation Strata's replay of the session is in" : undefined}>
          {agent.recorded ? 'Strata ' : ''}generation {agent.generation}
        </span>
        {agent.recorded ? <SessionAgentMeters agent={agent} recorded={agent.recorded} /> : <UtilizationBar used={agent.tokens} budget={agent.budget} />}
        <span title="CacheRead / (Input + CacheRead + CacheWrite)">{agent.recorded ? `${clientName(agent.recorded)} hit` : 'hit'} {percent(agent.cacheHitRate)}</span>
        {actions}
      </header>
      <p className="pane__task">{agent.task}</p>
      <dl className="facts">
        <dt>model</dt>
        <dd>{agent.model}</dd>
        <dt>parent</dt>
        <dd>{agent.parent ? <button className="link" onClick={() => void controller.select(agent.parent)}>{agent.parent}</button> : '—'}</dd>
        {agent.recorded ? (
          <>
            <dt>{clientName(agent.recorded)} context</dt>
            <dd data-figure="recorded">{recordedContextText(agent.recorded)}</dd>
            <dt>Strata replay</dt>
            <dd data-figure="strata">
              generation {agent.generation} · {tokens(agent.tokens)} / {tokens(agent.budget)} tokens of the replay budget
            </dd>
          </>
        ) : (
          <>
            <dt>context</dt>
            <dd>
              {tokens(agent.tokens)} / {tokens(agent.budget)} tokens
            </dd>
          </>
        )}
        <dt>{agent.recorded ? `${clientName(agent.recorded)} usage` : 'usage'}</dt>
        <dd>
          input {tokens(u.input)} · cache read {tokens(u.cacheRead)} · cache write {tokens(u.cacheWrite)} · output {tokens(u.output)}
        </dd>
        <dt>children</dt>
        <dd>
          {children.length === 0
            ? '—'
            : children.map((c) => (
                <button key={c.agentId} className="link" onClick={() => void controller.select(c.agentId)}>
                  {c.agentId}
                </button>
              ))}
        </dd>
      </dl>
      {inspector}
      <h3>Log</h3>
      <ol className="log" aria-label={`Log of ${agent.agentId}`}>
        {log.map((e) => (
          <li key={e.seq} className={`log__line log__line--${e.level}`}>
            <time>{timeOfDay(e.at)}</time> {e.message}
          </li>
        ))}
      </ol>
    </section>
  );
}
