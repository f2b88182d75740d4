import { memo, useState } from 'react';
import type { DroppedDto, GenerationDto, IncludedDto, ItemDto } from '../../../engine/contract';
import { useController, useStrata } from '../../controller/StoreContext';
import { tokens } from '../../components/format';
import {
  includedByLayer,
  LAYERS,
  selectGenerationDetail,
  selectGenerationList,
  selectGenerationNumbers,
  selectRemovedItems,
  selectViewedNumber,
} from '../../store/generations/generationsSelectors';
import { type ControlOutcome, itemKey } from '../../store/controls/controlsSlice';
import type { RootState } from '../../store/reduce';
import { selectSelectedSessionId } from '../../store/sessions/sessionsSelectors';
import { groupDuplicates, itemMatches, type EntryGroup } from '../../store/generations/groupDuplicates';
import { CompositionChart } from './CompositionChart';
import { ConfirmChange } from './ConfirmChange';
import { ContextCategories } from './ContextCategories';
import { ItemContent } from './ItemContent';
import { PastGenerationBanner } from './PastGenerationBanner';
import { ItemControls } from './ItemControls';
import { LayerBar } from './LayerBar';
import { OutcomeLine } from './Outcome';
import { provenanceLine, utcMinute } from './provenance';
import { useWidth } from './useWidth';

const selectOutcomes = (s: RootState): Record<string, ControlOutcome> => s.controls.byKey;
/** The selected agent belongs to an attached session: its items are watched, never changed. */
const selectReadOnly = (s: RootState): boolean => selectSelectedSessionId(s) !== null;

/** From this inspector width on, the item content pane sits beside the lists. */
const SIDE_PANE_WIDTH = 900;

/** The generation the operator inspects: current or any earlier one, as the host returns it. */
export function GenerationPicker({ label = 'Generation' }: { label?: string }) {
  const numbers = useStrata(selectGenerationNumbers);
  const viewed = useStrata(selectViewedNumber);
  const controller = useController();
  return (
    <label className="picker">
      {label}{' '}
      <select
        className="input"
        value={viewed === null ? 'current' : String(viewed)}
        onChange={(e) => void controller.viewGeneration(e.target.value === 'current' ? null : Number(e.target.value))}
      >
        <option value="current">current{numbers[0] ? ` (g${numbers[0]})` : ''}</option>
        {numbers.map((n) => (
          <option key={n} value={n}>
            g{n}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * The context inspector: categories with their share of the budget and the free space, layers,
 * included items (copies of the same read grouped) with provenance, dropped, compressed,
 * composition; a search over titles, files and content, and the selected item's whole text.
 */
export function ContextInspector() {
  const detail = useStrata(selectGenerationDetail);
  const list = useStrata(selectGenerationList);
  const [query, setQuery] = useState('');
  const [openId, setOpenId] = useState<string | null>(null);
  const [ref, width] = useWidth<HTMLElement>(SIDE_PANE_WIDTH);
  const numbers = useStrata(selectGenerationNumbers);
  const viewed = useStrata(selectViewedNumber);
  const readOnly = useStrata(selectReadOnly);
  const g = detail.value;
  const current = numbers[0];
  // A generation older than the current one: its controls would act on today's pool, so they are off.
  const past = g !== null && current !== undefined && viewed !== null && g.number === viewed && viewed < current ? viewed : null;
  // An agent that has not been built has no generation: the host says not_found; that is a state, not a failure.
  const unbuilt = detail.status === 'error' && list.status === 'ready' && list.value.length === 0;
  return (
    <section className="inspector" aria-label="Context inspector" ref={ref}>
      <div className="inspector__head">
        <GenerationPicker />
        {detail.status === 'loading' && <span className="muted" role="status">loading…</span>}
        {g && <GenerationSummary g={g} />}
        {g && (
          <input
            className="input inspector__search"
            type="search"
            aria-label="Search the context"
            placeholder="Search titles, files and content"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
      </div>
      {g && past !== null && current !== undefined && <PastGenerationBanner agentId={g.agentId} viewed={past} current={current} readOnly={readOnly} />}
      {detail.status === 'error' && !unbuilt && (
        <p className="notice notice--error" role="alert">
          {detail.error}
        </p>
      )}
      {unbuilt && <p className="empty">No generation yet: the agent has not been built; it builds at its first turn.</p>}
      {!g && detail.status !== 'error' && <p className="empty">{detail.status === 'loading' ? 'Loading the generation…' : 'No generation yet: the agent has not been built.'}</p>}
      {g && <GenerationBody g={g} query={query} openId={openId} onOpen={setOpenId} wide={width >= SIDE_PANE_WIDTH} past={past !== null} />}
    </section>
  );
}

function GenerationSummary({ g }: { g: GenerationDto }) {
  return (
    <span className="inspector__summary" data-generation={g.number}>
      <b>generation {g.number}</b> · {g.boundary.kind} · phase {g.phase} · {g.strategy} · {tokens(g.tokens)} / {tokens(g.budget)} tokens · {g.builds} build{g.builds === 1 ? '' : 's'} · started {utcMinute(g.startedAt)}
    </span>
  );
}


/**
 * Memoized on the generation: the selected agent's generation reloads every turn, and its load
 * states and list changes must not re-render hundreds of rows. Reloads keep unchanged entries'
 * identity (the slice shares them), so only changed rows render again.
 */
interface BodyProps {
  g: GenerationDto;
  query: string;
  openId: string | null;
  onOpen(itemId: string | null): void;
  wide: boolean;
  /** A past generation is inspected: no item control applies. */
  past: boolean;
}

const PAST_REASON = 'Off while you view a past generation: go back to the current one to change items.';
const ABSENT_REASON = 'No longer in the pool: this generation listed it, but the pool has let it go (restore from this generation to bring it back).';

const GenerationBody = memo(function GenerationBody({ g, query, openId, onOpen, wide, past }: BodyProps) {
  const removed = useStrata(selectRemovedItems);
  const outcomes = useStrata(selectOutcomes);
  const readOnly = useStrata(selectReadOnly);
  const confirmId = useStrata(selectConfirmId);
  const searching = query.trim() !== '';
  const byLayer = includedByLayer({ included: searching ? g.included.filter((e) => itemMatches(e.item, query)) : g.included });
  const dropped = searching ? g.dropped.filter((d) => itemMatches(d.item, query)) : g.dropped;
  const titleOf = new Map(g.included.map((e) => [e.item.id, e.item.title || e.item.id]));
  const opened = openId === null ? undefined : (g.included.find((e) => e.item.id === openId) ?? g.dropped.find((d) => d.item.id === openId));
  const absent = new Set(g.absent ?? []);
  const rowProps = (itemId: string): RowProps => ({
    removed: Boolean(removed[itemId]),
    outcome: outcomes[itemKey(itemId)],
    readOnly,
    open: openId === itemId,
    onOpen,
    absent: absent.has(itemId),
    offReason: past ? PAST_REASON : absent.has(itemId) ? ABSENT_REASON : null,
    asking: confirmId === itemId,
  });
  const matched = LAYERS.reduce((n, l) => n + byLayer[l].length, 0);
  const pane = opened ? (
    <ItemContent item={opened.item} tokenCount={opened.tokens} query={query} onClose={() => onOpen(null)} />
  ) : wide ? (
    <aside className="item-pane item-pane--empty" aria-label="Item content">
      <p className="empty">Select an item's title to read its whole text here.</p>
    </aside>
  ) : null;
  return (
    <>
      {g.overflow > 0 ? (
        <p className="notice notice--warn" role="status" data-overflow={g.overflow}>
          Overflow: pinned and mandatory content needs {tokens(g.overflow)} tokens more than the budget of {tokens(g.budget)}. They are never clipped; unpin something to fit.
        </p>
      ) : (
        <p className="muted inspector__fit">overflow: none</p>
      )}
      <div className="inspector__charts">
        <ContextCategories g={g} />
        <LayerBar generation={g} />
        <CompositionChart generation={g} />
      </div>

      <div className={`inspector__split${wide ? ' inspector__split--wide' : ''}`}>
        {!wide && pane}
        <div className="inspector__lists">
      <h3>
        Included ({g.included.length}) · {tokens(g.tokens)} tokens
      </h3>
      {searching && (
        <p className="muted inspector__matches" role="status">
          {matched} included and {dropped.length} dropped item{matched + dropped.length === 1 ? '' : 's'} match “{query.trim()}”
        </p>
      )}
      {g.included.length === 0 && <p className="empty">Nothing included.</p>}
      {LAYERS.map((layer) =>
        byLayer[layer].length === 0 ? null : (
          <div key={layer} className="layer-group">
            <h4 className="layer-group__title">
              <i className={`layers__swatch layers__seg--${layer}`} /> {layer} · {byLayer[layer].length} items · {tokens(g.layerTokens[layer])} tokens
            </h4>
            <ul className="items" aria-label={`Included in ${layer}`}>
              {groupDuplicates(byLayer[layer]).map((group) =>
                group.entries.length === 1 ? (
                  <IncludedRow key={group.key} e={group.entries[0] as IncludedDto} {...rowProps((group.entries[0] as IncludedDto).item.id)} />
                ) : (
                  <GroupRow key={group.key} group={group} rowProps={rowProps} />
                ),
              )}
            </ul>
          </div>
        ),
      )}

      <h3>
        Dropped ({g.counts.dropped}){g.dropped.length < g.counts.dropped ? ` · first ${g.dropped.length} shown` : ''}
      </h3>
      {dropped.length === 0 ? (
        <p className="empty">{searching && g.dropped.length > 0 ? 'No dropped item matches.' : 'Nothing dropped.'}</p>
      ) : (
        <ul className="items" aria-label="Dropped">
          {dropped.map((d) => (
            <DroppedRow key={d.item.id} d={d} {...rowProps(d.item.id)} />
          ))}
        </ul>
      )}

      <h3>Compressed ({g.compressed.length})</h3>
      {g.compressed.length === 0 ? (
        <p className="empty">Nothing compressed.</p>
      ) : (
        <table className="table" aria-label="Compressed">
          <thead>
            <tr>
              <th scope="col">item</th>
              <th scope="col">method</th>
              <th scope="col">before</th>
              <th scope="col">after</th>
              <th scope="col">saved</th>
            </tr>
          </thead>
          <tbody>
            {g.compressed.map((c) => (
              <tr key={c.itemId}>
                <td>{titleOf.get(c.itemId) ?? c.itemId}</td>
                <td>{c.method}</td>
                <td>{tokens(c.from)}</td>
                <td>{tokens(c.to)}</td>
                <td>{tokens(c.from - c.to)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
        </div>
        {wide && pane}
      </div>
    </>
  );
});

type RowProps = { removed: boolean; outcome: ControlOutcome | undefined; readOnly: boolean; open: boolean; onOpen(itemId: string | null): void; absent: boolean; offReason: string | null; asking: boolean };

const selectConfirmId = (s: RootState): string | null => s.controls.confirm?.itemId ?? null;

/** The tag of a listed item the pool no longer holds. */
const AbsentTag = () => (
  <span className="tag tag--bad" title={ABSENT_REASON}>
    not in the pool
  </span>
);

/** Copies of the same read (same kind and title) as one row with their count; open it to see each. */
function GroupRow({ group, rowProps }: { group: EntryGroup; rowProps(itemId: string): RowProps }) {
  const first = group.entries[0] as IncludedDto;
  const [expanded, setExpanded] = useState(false);
  return (
    <li className="item item--group" data-group-count={group.entries.length} data-item-id={first.item.id}>
      <details onToggle={(e) => setExpanded(e.currentTarget.open)}>
        <summary className="item__main" aria-expanded={expanded}>
          <span className="item__title">{first.item.title || first.item.id}</span>
          <span className="tag" title={`${group.entries.length} items of the same kind and title`}>
            ×{group.entries.length}
          </span>
          <span className={`tag tag--${first.item.class}`}>{first.item.class}</span>
          <span className="item__num">{tokens(group.tokens)} tok in all</span>
        </summary>
        <ul className="items" aria-label={`Copies of ${first.item.title || first.item.id}`}>
          {group.entries.map((e) => (
            <IncludedRow key={e.item.id} e={e} {...rowProps(e.item.id)} />
          ))}
        </ul>
      </details>
    </li>
  );
}

/** An item's title: opens its whole text in the item content pane. */
function ItemTitle({ item, open, onOpen }: { item: ItemDto; open: boolean; onOpen(itemId: string | null): void }) {
  return (
    <button className={`item__title item__open${open ? ' item__open--on' : ''}`} aria-pressed={open} onClick={() => onOpen(open ? null : item.id)} title="Read the whole text">
      {item.title || item.id}
    </button>
  );
}

const DroppedRow = memo(function DroppedRow({ d, removed, outcome, readOnly, open, onOpen, absent, offReason, asking }: { d: DroppedDto } & RowProps) {
  return (
    <li className="item" data-item-id={d.item.id}>
      <div className="item__main">
        <ItemTitle item={d.item} open={open} onOpen={onOpen} />
        <span className={`tag tag--${d.item.class}`}>{d.item.class}</span>
        <span className="muted">{d.item.provenance.source}</span>
        {absent && !removed && <AbsentTag />}
        <span className="item__num">{tokens(d.tokens)} tok</span>
        {!readOnly && <ItemControls item={d.item} removed={removed} pending={outcome?.status === 'pending'} offReason={offReason} />}
      </div>
      {asking && !readOnly && <ConfirmChange />}
      <div className="item__why">reason: {d.reason}</div>
      <OutcomeLine outcome={outcome} className="item__outcome" />
    </li>
  );
});

const IncludedRow = memo(function IncludedRow({ e, removed, outcome, readOnly, open, onOpen, absent, offReason, asking }: { e: IncludedDto } & RowProps) {
  const item = e.item;
  return (
    <li className={`item${removed ? ' item--removed' : ''}`} data-item-id={item.id} data-layer={e.layer} data-pinned={item.pinned}>
      <div className="item__main">
        <ItemTitle item={item} open={open} onOpen={onOpen} />
        <span className={`tag tag--${item.class}`}>{item.class}</span>
        <span className="muted">{item.provenance.source}</span>
        {item.pinned && <span className="tag tag--pin">pinned</span>}
        {item.mandatory && <span className="tag">mandatory</span>}
        {removed && <span className="tag tag--bad">removed</span>}
        {absent && !removed && <AbsentTag />}
        <span className="item__num" title="tokens">
          {tokens(e.tokens)} tok
        </span>
        <span className="item__num" title={`score (tier ${e.tier})`}>
          score {e.score.toFixed(2)}
        </span>
        {!readOnly && <ItemControls item={item} removed={removed} pending={outcome?.status === 'pending'} offReason={offReason} />}
      </div>
      {asking && !readOnly && <ConfirmChange />}
      <div className="item__why">why: {e.why}</div>
      <div className="item__prov">{provenanceLine(item)}</div>
      <OutcomeLine outcome={outcome} className="item__outcome" />
    </li>
  );
});
