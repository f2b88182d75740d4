import { memo, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useDispatch, useStrata } from '../controller/StoreContext';
import { timeOfDay } from '../components/format';
import { EVENT_KINDS, type EventEntry, type EventKind } from '../store/events/eventsSlice';
import { countByKind, eventAgents, type EventFilter, filterEvents, selectEventEntries } from '../store/events/eventsSelectors';
import { eventNotes } from '../store/events/eventNotes';
import { logTarget } from '../store/log/logSelectors';
import { useRevealedCount } from './useRevealedCount';
import { type OpenLogTarget, useOpenLogTarget } from './useOpenLogTarget';
import { LogTargetButton } from './LogTargetButton';
import './eventsView.css';

/** Rows rendered at most; the slice holds more, the filter narrows them. */
const eventsShown = 300;
/** Rows in the DOM until the reader scrolls toward the end (more follow, `eventsRevealStep` at a time). */
const eventsRevealStep = 50;
/** Height a row not rendered yet is assumed to take until rendered rows were measured (rows wrap). */
const ROW_ESTIMATE_PX = 32;

const KIND_LABEL: Record<EventKind, string> = {
  refresh: 'refreshes',
  compaction: 'compactions',
  hook: 'hook denials',
  error: 'errors',
  memory: 'memory',
  run: 'runs',
  turn: 'turns',
  log: 'other',
};

/**
 * One row; an entry never changes, so a row renders once however many events arrive after it. The
 * agent it names opens that agent (at the generation it names), as a log strip line does.
 */
const EventRow = memo(function EventRow({ e, note, open }: { e: EventEntry; note: string | undefined; open: OpenLogTarget }) {
  const iso = new Date(e.at).toISOString();
  const target = logTarget({ agentId: e.agentId, message: e.text });
  return (
    <li className={`events__row events__row--${e.kind} log__line--${e.level}`} data-kind={e.kind}>
      <time dateTime={iso}>{timeOfDay(iso)}</time>
      <span className={`events__kind events__kind--${e.kind}`}>{e.kind}</span>
      {target ? <LogTargetButton target={target} open={open} className="events__agent" /> : <span className="events__agent">—</span>}
      <span className="events__msg">
        {e.text}
        {note && <span className="events__note">{note}</span>}
      </span>
    </li>
  );
});

/** One click leaves compactions (about a third of all events) out of this view and the log strip; remembered. */
function HideCompactions({ hidden, count, onChange }: { hidden: EventKind[]; count: number; onChange(kinds: EventKind[]): void }) {
  const on = hidden.includes('compaction');
  return (
    <button type="button" className="events__chip events__hide" aria-pressed={on} onClick={() => onChange(on ? hidden.filter((k) => k !== 'compaction') : [...hidden, 'compaction'])} title="Leave compactions out of the Events view and the log strip">
      hide compactions <span className="events__n">{count}</span>
    </button>
  );
}

/** The same array while its contents are the same, so the agent options do not re-render per event. */
function useStableList(list: string[]): string[] {
  const ref = useRef(list);
  if (ref.current.length !== list.length || ref.current.some((x, i) => x !== list[i])) ref.current = list;
  return ref.current;
}

const selectBudgets = (s: { agents: { byId: Record<string, { budget: number }> } }) => s.agents.byId;

/** The workspace event log, newest first, filterable by kind, agent and text; times are wall clock. */
export function EventsView() {
  // Deferred: a burst of events re-renders the list at low priority, never blocking a frame.
  const entries = useDeferredValue(useStrata(selectEventEntries));
  const [filter, setFilter] = useState<EventFilter>({ kinds: [], agentId: null, text: '' });
  const hidden = useStrata((s) => s.ui.hiddenKinds);
  const dispatch = useDispatch();
  const rows = useMemo(() => filterEvents(entries, { ...filter, hidden }, eventsShown), [entries, filter, hidden]);
  const agentsById = useStrata(selectBudgets);
  const notes = useMemo(() => eventNotes(entries, rows, Object.fromEntries(Object.entries(agentsById).map(([id, a]) => [id, a.budget]))), [entries, rows, agentsById]);
  // A tree flag opened this view on one agent's events of some kinds: take that filter once.
  const focus = useStrata((s) => s.ui.eventsFocus);
  useEffect(() => {
    if (!focus) return;
    setFilter({ kinds: focus.kinds, agentId: focus.agentId, text: '' });
    dispatch({ type: 'events.focusTaken' });
  }, [focus, dispatch]);
  const counts = useMemo(() => countByKind(entries), [entries]);
  const agents = useStableList(useMemo(() => eventAgents(entries), [entries]));
  const agentOptions = useMemo(
    () =>
      agents.map((id) => (
        <option key={id} value={id}>
          {id}
        </option>
      )),
    [agents],
  );

  const toggle = (k: EventKind) =>
    setFilter((f) => ({ ...f, kinds: f.kinds.includes(k) ? f.kinds.filter((x) => x !== k) : [...f.kinds, k] }));

  return (
    <section className="events" aria-label="Events">
      <div className="events__filters">
        <div className="events__kinds" role="group" aria-label="Filter by kind">
          <button type="button" className="events__chip" aria-pressed={filter.kinds.length === 0} onClick={() => setFilter((f) => ({ ...f, kinds: [] }))}>
            all <span className="events__n">{entries.length}</span>
          </button>
          {EVENT_KINDS.map((k) => (
            <button key={k} type="button" className={`events__chip events__chip--${k}`} aria-pressed={filter.kinds.includes(k)} onClick={() => toggle(k)}>
              {KIND_LABEL[k]} <span className="events__n">{counts[k] ?? 0}</span>
            </button>
          ))}
        </div>
        <HideCompactions hidden={hidden} count={counts.compaction ?? 0} onChange={(kinds) => dispatch({ type: 'events.hideKinds', kinds })} />
        <label className="events__field">
          <span>Agent</span>
          <select aria-label="Filter by agent" value={filter.agentId ?? ''} onChange={(e) => setFilter((f) => ({ ...f, agentId: e.target.value || null }))}>
            <option value="">all agents</option>
            {agentOptions}
          </select>
        </label>
        <input
          className="events__text"
          type="search"
          placeholder="Filter text"
          aria-label="Filter events by text"
          value={filter.text}
          onChange={(e) => setFilter((f) => ({ ...f, text: e.target.value }))}
        />
        <span className="events__meta" role="status" title="Event times are wall clock: when the host wrote the line">
          wall clock ·{' '}
          {rows.length === eventsShown ? `newest ${eventsShown} of ` : ''}
          {rows.length} shown
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="empty events__empty">{entries.length === 0 ? 'No events yet. Refreshes, compactions, errors and runs appear here as they happen.' : 'No event matches the filter.'}</p>
      ) : (
        <EventList rows={rows} notes={notes} />
      )}
    </section>
  );
}

/**
 * The rows, rendered again only when they change (not on the urgent render before the deferred
 * one). Only the first rows are in the DOM until the reader scrolls down: each new event moves
 * every row down, and 300 rows re-laid out and re-painted at that rate took most of each frame.
 */
const EventList = memo(function EventList({ rows, notes }: { rows: EventEntry[]; notes: Record<string, string> }) {
  const open = useOpenLogTarget();
  const [revealed, sentinel] = useRevealedCount(eventsRevealStep);
  const hidden = Math.max(0, rows.length - revealed);
  // The spacer for the rows not rendered takes their likely height, so the scrollbar spans every row.
  const list = useRef<HTMLOListElement>(null);
  const [rowHeight, setRowHeight] = useState(ROW_ESTIMATE_PX);
  useLayoutEffect(() => {
    const el = list.current;
    if (el && el.children.length > 0 && el.offsetHeight > 0) setRowHeight(el.offsetHeight / el.children.length);
  }, [revealed]);
  return (
    <>
      <ol ref={list} className="events__list" aria-label="Event log entries, newest first" tabIndex={0}>
        {(hidden > 0 ? rows.slice(0, revealed) : rows).map((e) => (
          <EventRow key={e.id} e={e} note={notes[e.id]} open={open} />
        ))}
      </ol>
      {hidden > 0 && <div ref={sentinel} className="events__more" style={{ height: Math.round(hidden * rowHeight) }} aria-hidden="true" />}
    </>
  );
});
