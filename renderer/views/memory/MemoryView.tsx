import { useEffect, useId, useRef, useState } from 'react';
import type { MemoryEntryDto } from '../../../engine/contract';
import { useController, useDispatch, useStrata } from '../../controller/StoreContext';
import { freshness, memoryCounts, selectMemoryState } from '../../store/memory/memorySelectors';
import { Candidates } from './Candidates';
import { PurgeDialog } from './PurgeDialog';
import './memory.css';

const dateTime = (ms: number) => new Date(ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });

/** Project memory: entries with their state and evidence, verify and retire, and purge behind a confirmation. */
export function MemoryView() {
  const controller = useController();
  const dispatch = useDispatch();
  const memory = useStrata(selectMemoryState);
  const purgeOpen = useStrata((s) => s.ui.purgeDialog);
  const setPurgeOpen = (open: boolean) => dispatch({ type: 'purge.dialog', open });
  const purgeButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    void controller.loadMemory();
  }, [controller]);

  const counts = memoryCounts(memory.entries);
  const now = Date.now();

  return (
    <section className="mem" aria-label="Project memory">
      <header className="mem__head">
        <h2 className="mem__title">Project memory</h2>
        <span className="mem__counts">
          {counts.verified} verified · {counts.candidate} candidates · {counts.stale} stale · {counts.retired} retired
        </span>
        <span className="mem__spacer" />
        <button type="button" className="mem__btn" onClick={() => void controller.loadMemory()} disabled={memory.status === 'loading'}>
          Reload
        </button>
        <button ref={purgeButton} type="button" className="mem__btn mem__btn--danger" onClick={() => setPurgeOpen(true)} disabled={memory.purging}>
          Purge memory…
        </button>
      </header>

      {memory.error && (
        <p className="mem__error mem__banner" role="alert">
          {memory.error}
        </p>
      )}
      {memory.purgeReport && (
        <div className="mem__report" role="status" aria-label="Purge report">
          <div className="mem__report-head">
            <strong>Memory purged.</strong>
            <button type="button" className="mem__btn mem__btn--small" onClick={() => dispatch({ type: 'memory.dismissReport' })}>
              Dismiss
            </button>
          </div>
          <dl className="mem__facts">
            <dt>entries deleted</dt>
            <dd>{memory.purgeReport.deleted}</dd>
            <dt>recalled copies deleted</dt>
            <dd>{memory.purgeReport.recalledCopiesDeleted}</dd>
            <dt>free pages rewritten (VACUUM)</dt>
            <dd>{memory.purgeReport.vacuumed ? 'yes' : 'no'}</dd>
            <dt>WAL truncated</dt>
            <dd>{memory.purgeReport.walTruncated ? 'yes' : 'no'}</dd>
          </dl>
          <p className="mem__policy">
            <strong>Residual exposure:</strong> {memory.purgeReport.residual}
          </p>
        </div>
      )}

      <Candidates />

      <h3>Entries</h3>
      {memory.status === 'loading' && memory.entries.length === 0 && <p className="empty">Loading project memory…</p>}
      {memory.status !== 'loading' && memory.entries.length === 0 && <p className="empty">No project memory yet. Promote a finding from this run to propose one.</p>}
      <ul className="mem__list" aria-label="Memory entries">
        {memory.entries.map((e) => (
          <MemoryEntry key={e.id} entry={e} now={now} />
        ))}
      </ul>

      {purgeOpen && (
        <PurgeDialog
          entries={memory.entries.length}
          purging={memory.purging}
          onClose={() => {
            setPurgeOpen(false);
            purgeButton.current?.focus();
          }}
          onConfirm={(words) => {
            setPurgeOpen(false);
            void controller.purgeMemory(words);
          }}
        />
      )}
    </section>
  );
}

function MemoryEntry({ entry: e, now }: { entry: MemoryEntryDto; now: number }) {
  const controller = useController();
  const busy = useStrata((s) => Boolean(s.memory.busy[e.id]));
  const error = useStrata((s) => (s.memory.entryError?.id === e.id ? s.memory.entryError : null));
  const fresh = freshness(e, now);
  const closed = e.state === 'retired' || e.state === 'deleted';
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(e.title);
  const [body, setBody] = useState(e.body);
  const [undo, setUndo] = useState<number | null>(null);
  const ids = useId();
  const startEdit = () => {
    setTitle(e.title);
    setBody(e.body);
    setEditing(true);
  };
  const save = async () => {
    if (await controller.editMemory(e.id, e.revision, { title, body })) setEditing(false);
  };
  const verify = async () => {
    await controller.verifyMemory(e.id, e.revision);
    setUndo(e.revision + 1);
  };
  return (
    <li className={`mem__entry mem__entry--${e.state}`} data-memory-id={e.id} aria-label={`Memory entry ${e.title}`}>
      <div className="mem__entry-head">
        <span className={`mem__state mem__state--${e.state}`}>{e.state}</span>
        <span className={`mem__verified${e.verified ? ' mem__verified--yes' : ''}`}>{e.verified ? '✓ verified' : '✕ not verified'}</span>
        <strong className="mem__entry-title">{e.title}</strong>
        <span className="mem__kind">{e.kind}</span>
        <span className="mem__rev" title="revision: a change names it, and is refused if the entry moved on">
          rev {e.revision}
        </span>
      </div>
      {editing ? (
        <form
          className="mem__edit"
          aria-label={`Edit ${e.title}`}
          onSubmit={(ev) => {
            ev.preventDefault();
            void save();
          }}
        >
          <label className="mem__label" htmlFor={`${ids}-title`}>
            Title
          </label>
          <input id={`${ids}-title`} className="mem__input" value={title} maxLength={200} onChange={(ev) => setTitle(ev.target.value)} />
          <label className="mem__label" htmlFor={`${ids}-body`}>
            Body
          </label>
          <textarea id={`${ids}-body`} className="mem__input" value={body} rows={4} onChange={(ev) => setBody(ev.target.value)} />
          <p className="mem__note">
            {e.state === 'verified' ? 'Saving makes this verified entry a candidate again: what was verified is the old text, so verify the new one to recall it.' : 'Saving keeps it a candidate; verify it to recall it.'}
          </p>
          <div className="mem__actions">
            <button type="submit" className="mem__btn" disabled={busy}>
              Save
            </button>
            <button type="button" className="mem__btn" disabled={busy} onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <p className="mem__body">{e.body}</p>
      )}
      <dl className="mem__facts">
        <dt>evidence</dt>
        <dd>{e.evidence.paths.length === 0 ? <span className="mem__muted">no files</span> : e.evidence.paths.map((p) => <code key={p}>{p}</code>)}</dd>
        <dt>observed</dt>
        <dd>
          {dateTime(e.provenance.observedAt)} by {e.provenance.agentId}
        </dd>
        <dt>freshness</dt>
        <dd className={`mem__fresh mem__fresh--${fresh.level}`}>{fresh.label}</dd>
      </dl>
      <div className="mem__actions">
        {e.state === 'verified' ? (
          <button type="button" className="mem__btn" disabled={busy} onClick={() => void controller.unverifyMemory(e.id, e.revision)} title="Undo the verify: back to candidate, no longer recalled">
            Unverify
          </button>
        ) : (
          <button type="button" className="mem__btn" disabled={busy || closed} onClick={() => void verify()}>
            Verify
          </button>
        )}
        <button type="button" className="mem__btn" disabled={busy || closed || editing} onClick={startEdit}>
          Edit
        </button>
        <button type="button" className="mem__btn" disabled={busy || closed} onClick={() => void controller.retireMemory(e.id, e.revision)}>
          Retire
        </button>
      </div>
      {undo === e.revision && e.state === 'verified' && (
        <p className="mem__undo" role="status">
          Verified: agents recall it from their next prompt.{' '}
          <button type="button" className="mem__btn mem__btn--small" disabled={busy} onClick={() => void controller.unverifyMemory(e.id, e.revision)}>
            Undo
          </button>
        </p>
      )}
      {error && (
        <div className="mem__error mem__banner" role="alert">
          {error.code === 'conflict' ? (
            <>
              <strong>Changed elsewhere:</strong> this entry’s revision moved since it was shown (rev {e.revision}), so nothing was changed. {error.message}{' '}
              <button type="button" className="mem__btn mem__btn--small" onClick={() => void controller.loadMemory()}>
                Reload memory
              </button>
            </>
          ) : (
            error.message
          )}
        </div>
      )}
    </li>
  );
}
