import { memo } from 'react';
import type { DroppedDto, GenerationDto, IncludedDto } from '../../../engine/contract';
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
import { CompositionChart } from './CompositionChart';
import { ItemControls } from './ItemControls';
import { LayerBar } from './LayerBar';
import { OutcomeLine } from './Outcome';
import { provenanceLine, utcMinute } from './provenance';

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

/** The context inspector: layers, included items with provenance, dropped, compressed, composition. */
export function ContextInspector() {
  const detail = useStrata(selectGenerationDetail);
  const list = useStrata(selectGenerationList);
  const g = detail.value;
  // An agent that has not been built has no generation: the host says not_found; that is a state, not a failure.
  const unbuilt = detail.status === 'error' && list.status === 'ready' && list.value.length === 0;
  return (
    <section className="inspector" aria-label="Context inspector">
      <div className="inspector__head">
        <GenerationPicker />
        {detail.status === 'loading' && <span className="muted" role="status">loading…</span>}
        {g && <GenerationSummary g={g} />}
      </div>
      {detail.status === 'error' && !unbuilt && (
        <p className="notice notice--error" role="alert">
          {detail.error}
        </p>
      )}
      {unbuilt && <p className="empty">No generation yet: the agent has not been built ({detail.error}).</p>}
      {!g && detail.status !== 'error' && <p className="empty">{detail.status === 'loading' ? 'Loading the generation…' : 'No generation yet: the agent has not been built.'}</p>}
      {g && <GenerationBody g={g} />}
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

const selectOutcomes = (s: RootState): Record<string, ControlOutcome> => s.controls.byKey;
/** The selected agent belongs to an attached session: its items are watched, never changed. */
const selectReadOnly = (s: RootState): boolean => selectSelectedSessionId(s) !== null;

/**
 * Memoized on the generation: the selected agent's generation reloads every turn, and its load
 * states and list changes must not re-render hundreds of rows. Reloads keep unchanged entries'
 * identity (the slice shares them), so only changed rows render again.
 */
const GenerationBody = memo(function GenerationBody({ g }: { g: GenerationDto }) {
  const removed = useStrata(selectRemovedItems);
  const outcomes = useStrata(selectOutcomes);
  const readOnly = useStrata(selectReadOnly);
  const byLayer = includedByLayer(g);
  const titleOf = new Map(g.included.map((e) => [e.item.id, e.item.title || e.item.id]));
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
        <LayerBar generation={g} />
        <CompositionChart generation={g} />
      </div>

      <h3>
        Included ({g.included.length}) · {tokens(g.tokens)} tokens
      </h3>
      {g.included.length === 0 && <p className="empty">Nothing included.</p>}
      {LAYERS.map((layer) =>
        byLayer[layer].length === 0 ? null : (
          <div key={layer} className="layer-group">
            <h4 className="layer-group__title">
              <i className={`layers__swatch layers__seg--${layer}`} /> {layer} · {byLayer[layer].length} items · {tokens(g.layerTokens[layer])} tokens
            </h4>
            <ul className="items" aria-label={`Included in ${layer}`}>
              {byLayer[layer].map((e) => (
                <IncludedRow key={e.item.id} e={e} removed={Boolean(removed[e.item.id])} outcome={outcomes[itemKey(e.item.id)]} readOnly={readOnly} />
              ))}
            </ul>
          </div>
        ),
      )}

      <h3>
        Dropped ({g.counts.dropped}){g.dropped.length < g.counts.dropped ? ` · first ${g.dropped.length} shown` : ''}
      </h3>
      {g.dropped.length === 0 ? (
        <p className="empty">Nothing dropped.</p>
      ) : (
        <ul className="items" aria-label="Dropped">
          {g.dropped.map((d) => (
            <DroppedRow key={d.item.id} d={d} removed={Boolean(removed[d.item.id])} outcome={outcomes[itemKey(d.item.id)]} readOnly={readOnly} />
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
    </>
  );
});

const DroppedRow = memo(function DroppedRow({ d, removed, outcome, readOnly }: { d: DroppedDto; removed: boolean; outcome: ControlOutcome | undefined; readOnly: boolean }) {
  return (
    <li className="item" data-item-id={d.item.id}>
      <div className="item__main">
        <span className="item__title">{d.item.title || d.item.id}</span>
        <span className={`tag tag--${d.item.class}`}>{d.item.class}</span>
        <span className="muted">{d.item.provenance.source}</span>
        <span className="item__num">{tokens(d.tokens)} tok</span>
        {!readOnly && <ItemControls item={d.item} removed={removed} pending={outcome?.status === 'pending'} />}
      </div>
      <div className="item__why">reason: {d.reason}</div>
      <OutcomeLine outcome={outcome} className="item__outcome" />
    </li>
  );
});

const IncludedRow = memo(function IncludedRow({ e, removed, outcome, readOnly }: { e: IncludedDto; removed: boolean; outcome: ControlOutcome | undefined; readOnly: boolean }) {
  const item = e.item;
  return (
    <li className={`item${removed ? ' item--removed' : ''}`} data-item-id={item.id} data-layer={e.layer} data-pinned={item.pinned}>
      <div className="item__main">
        <span className="item__title" title={item.content}>
          {item.title || item.id}
        </span>
        <span className={`tag tag--${item.class}`}>{item.class}</span>
        <span className="muted">{item.provenance.source}</span>
        {item.pinned && <span className="tag tag--pin">pinned</span>}
        {item.mandatory && <span className="tag">mandatory</span>}
        {removed && <span className="tag tag--bad">removed</span>}
        <span className="item__num" title="tokens">
          {tokens(e.tokens)} tok
        </span>
        <span className="item__num" title={`score (tier ${e.tier})`}>
          score {e.score.toFixed(2)}
        </span>
        {!readOnly && <ItemControls item={item} removed={removed} pending={outcome?.status === 'pending'} />}
      </div>
      <div className="item__why">why: {e.why}</div>
      <div className="item__prov">{provenanceLine(item)}</div>
      <OutcomeLine outcome={outcome} className="item__outcome" />
    </li>
  );
});
