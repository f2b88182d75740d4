import { useEffect } from 'react';
import { useController, useStrata } from '../../controller/StoreContext';
import { selectSkillsState, skillUsers } from '../../store/skills/skillsSelectors';
import './skills.css';

const list = (xs: readonly string[]) => (xs.length === 0 ? '—' : xs.join(', '));

/** Loaded skills with their metadata, which ones each agent's last request carried and why not the others, and load errors. */
export function SkillsView() {
  const controller = useController();
  const { data, status, error } = useStrata(selectSkillsState);

  useEffect(() => {
    void controller.loadSkills();
  }, [controller]);

  const users = data ? skillUsers(data) : {};
  return (
    <section className="skl" aria-label="Skills">
      <header className="skl__head">
        <h2 className="skl__title">Skills</h2>
        <span className="skl__muted">{data ? `${data.loaded.length} loaded · ${data.errors.length} load errors · ${data.selected.length} agents` : ''}</span>
        <span className="skl__spacer" />
        <button type="button" className="skl__btn" onClick={() => void controller.loadSkills()} disabled={status === 'loading'}>
          {status === 'loading' ? 'Loading…' : 'Reload'}
        </button>
      </header>
      {error && (
        <p className="skl__error skl__banner" role="alert">
          {error}
        </p>
      )}
      {!data && status === 'loading' && <p className="empty">Loading skills…</p>}

      {data && (
        <>
          <h3>Loaded</h3>
          {data.loaded.length === 0 ? (
            <p className="empty">No skill is loaded.</p>
          ) : (
            <ul className="skl__list" aria-label="Loaded skills">
              {data.loaded.map((s) => (
                <li key={`${s.scope}/${s.name}`} className="skl__card" data-skill={s.name}>
                  <div className="skl__card-head">
                    <strong>{s.name}</strong>
                    <span className="skl__muted">v{s.version}</span>
                    <span className={`skl__tag skl__tag--${s.mode}`} title="always: carried by every request; selected: only when it matches the task">
                      mode: {s.mode}
                    </span>
                    <span className="skl__tag" title="shipped with Strata, or the workspace's own (.strata/skills)">
                      {s.scope}
                    </span>
                  </div>
                  <p className="skl__desc">{s.description}</p>
                  <dl className="skl__facts">
                    <dt>used by</dt>
                    <dd className={users[s.name] ? 'skl__used' : 'skl__muted'}>{users[s.name] ? users[s.name]?.join(', ') : 'no agent’s last request'}</dd>
                    <dt>domain</dt>
                    <dd>{s.domain}</dd>
                    <dt>languages</dt>
                    <dd>{list(s.languages)}</dd>
                    <dt>priority</dt>
                    <dd>{s.priority}</dd>
                    <dt>token budget</dt>
                    <dd>{s.tokenBudget.toLocaleString('en-US')}</dd>
                    <dt>depends on</dt>
                    <dd>{list(s.dependsOn)}</dd>
                    <dt>conflicts with</dt>
                    <dd>{list(s.conflictsWith)}</dd>
                    <dt>format</dt>
                    <dd>{s.format}</dd>
                    <dt>origin</dt>
                    <dd className="skl__origin">{s.origin}</dd>
                  </dl>
                </li>
              ))}
            </ul>
          )}

          <h3>Selection per agent</h3>
          {data.selected.length === 0 ? (
            <p className="empty">No agent has made a request yet, so none has selected skills.</p>
          ) : (
            <table className="skl__table" aria-label="Skills selected per agent">
              <thead>
                <tr>
                  <th scope="col">agent</th>
                  <th scope="col">selected</th>
                  <th scope="col">left out, and why</th>
                </tr>
              </thead>
              <tbody>
                {data.selected.map((a) => (
                  <tr key={a.agentId} data-agent={a.agentId}>
                    <th scope="row">{a.agentId}</th>
                    <td>{list(a.names)}</td>
                    <td>
                      {a.skipped.length === 0 && a.errors.length === 0 ? (
                        '—'
                      ) : (
                        <ul className="skl__why">
                          {a.skipped.map((k) => (
                            <li key={k.name}>
                              <b>{k.name}</b> <span className={`skl__tag skl__tag--${k.reason}`}>{k.reason}</span> {k.message}
                            </li>
                          ))}
                          {a.errors.map((e, i) => (
                            <li key={`e${i}`} className="skl__error">
                              {e.skill ? <b>{e.skill}: </b> : null}
                              {e.message}
                            </li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}

          <h3>Load errors</h3>
          {data.errors.length === 0 ? (
            <p className="empty">Every skill file loaded.</p>
          ) : (
            <ul className="skl__errors" aria-label="Skill load errors">
              {data.errors.map((e, i) => (
                <li key={i} className="skl__error">
                  <b>{e.kind}</b>
                  {e.skill ? ` · ${e.skill}` : ''}
                  {e.key ? ` · ${e.key}` : ''}: {e.message}
                  {e.origin && <div className="skl__origin skl__muted">{e.origin}</div>}
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}
