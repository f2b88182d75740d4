import { useState } from 'react';
import type { GatewaySessionDetailDto } from '../../../engine/contract';
import { tokens } from '../../components/format';
import { controlKey } from '../../controller/gatewayController';
import { useController, useStrata } from '../../controller/StoreContext';
import { gatewayGenerationDiff } from '../../store/gateway/generationDiff';
import { count } from './gatewayText';

type Thread = GatewaySessionDetailDto['threads'][number];
type Generation = Thread['generations'][number];

/** Manage mode's generations of one thread: what each kept, compressed and dropped, its diff from the one before, and the operator's pins and removals. */
export function GatewayGenerations({ sessionId, thread }: { sessionId: string; thread: Thread }) {
  const gens = thread.generations;
  const [chosen, setChosen] = useState<number | null>(null);
  const shown = gens.find((g) => g.generation === chosen) ?? gens[gens.length - 1];
  return (
    <section aria-label={`Generations of ${thread.label}`}>
      <h3 className="gw__h">
        Generations of {thread.label}
        {thread.generationsTotal > gens.length && <span className="muted"> (the newest {count(gens.length)} of {count(thread.generationsTotal)})</span>}
      </h3>
      {!shown ? (
        <p className="gw__empty">No generations: this thread’s calls went upstream as the client sent them. Switch the session to Manage and its next call is rewritten into generation 1.</p>
      ) : (
        <>
          <p className="muted gw__note">Pins and removals apply at the thread’s next generation boundary: its next call opens a new generation with them.</p>
          <ol className="gw__gens" aria-label="Generations">
            {[...gens].reverse().map((g) => (
              <li key={g.generation}>
                <button type="button" className={`gw__gen${g === shown ? ' gw__gen--on' : ''}`} aria-pressed={g === shown} onClick={() => setChosen(g.generation)}>
                  <b>Generation {g.generation}</b> <span className="muted">{g.reason}</span>{' '}
                  <span className="muted">
                    · from call {g.firstCall} · {count(g.calls)} {g.calls === 1 ? 'call' : 'calls'} · {count(g.included.length)} whole, {count(g.compressed.length)} compressed, {count(g.dropped.length)} dropped
                  </span>
                </button>
              </li>
            ))}
          </ol>
          <GenerationDetail sessionId={sessionId} thread={thread} g={shown} previous={gens[gens.indexOf(shown) - 1]} />
        </>
      )}
    </section>
  );
}

function GenerationDetail({ sessionId, thread, g, previous }: { sessionId: string; thread: Thread; g: Generation; previous: Generation | undefined }) {
  const diff = gatewayGenerationDiff(previous, g);
  const base = previous ? `generation ${previous.generation}` : g.generation === 1 ? 'the client’s request' : `generation ${g.generation - 1} (no longer kept)`;
  const controls = (itemKey: string) => <ItemControls sessionId={sessionId} thread={thread} itemKey={itemKey} />;
  return (
    <div className="gw__genDetail" aria-label={`Generation ${g.generation}`} role="group">
      <h4 className="gw__h4">Since {base}</h4>
      {diff.compressed.length + diff.dropped.length + diff.cameBack.length + diff.added.length === 0 ? (
        <p className="muted">Nothing changed in what it keeps, compresses or drops.</p>
      ) : (
        <ul className="gw__diff" aria-label={`Changes since ${base}`}>
          {diff.compressed.map((c) => (
            <li key={`c ${c.key}`}>
              <span className="tag tag--rebuild">compressed</span> <code>{c.key}</code> {c.tool && <span className="muted">{c.tool}</span>} {tokens(c.beforeTokens)}→{tokens(c.afterTokens)} tokens: {c.why}
            </li>
          ))}
          {diff.dropped.map((d) => (
            <li key={`d ${d.key}`}>
              <span className="tag tag--bad">dropped</span> <code>{d.key}</code>: {d.why}
            </li>
          ))}
          {diff.cameBack.map((key) => (
            <li key={`b ${key}`}>
              <span className="tag tag--pin">came back</span> <code>{key}</code>
            </li>
          ))}
          {diff.added.map((key) => (
            <li key={`a ${key}`}>
              <span className="tag">new</span> <code>{key}</code>
            </li>
          ))}
        </ul>
      )}
      <h4 className="gw__h4">Compressed ({count(g.compressed.length)})</h4>
      {g.compressed.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <div className="gw__scroll">
          <table className="gw__table" aria-label={`Compressed in generation ${g.generation}`}>
            <thead>
              <tr>
                <th scope="col">Item</th>
                <th scope="col">Tool</th>
                <th scope="col" className="num">Tokens before→after</th>
                <th scope="col">Why</th>
                <th scope="col">Control</th>
              </tr>
            </thead>
            <tbody>
              {g.compressed.map((c) => (
                <tr key={c.key}>
                  <td>
                    <code>{c.key}</code>
                  </td>
                  <td>{c.tool ?? '—'}</td>
                  <td className="num">
                    {tokens(c.beforeTokens)}→{tokens(c.afterTokens)}
                  </td>
                  <td className="gw__wrap">{c.why}</td>
                  <td>{controls(c.key)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h4 className="gw__h4">Whole ({count(g.included.length)})</h4>
      {g.included.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="gw__items" aria-label={`Whole in generation ${g.generation}`}>
          {g.included.map((key) => (
            <li key={key}>
              <code>{key}</code> {controls(key)}
            </li>
          ))}
        </ul>
      )}
      <h4 className="gw__h4">Dropped ({count(g.dropped.length)})</h4>
      {g.dropped.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="gw__items" aria-label={`Dropped in generation ${g.generation}`}>
          {g.dropped.map((d) => (
            <li key={d.key}>
              <code>{d.key}</code> <span className="muted">{d.why}</span> {controls(d.key)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** Pin / Unpin and Remove / Restore of one item, from the thread's pins and removals (a pinned item cannot be removed, nor a removed one pinned). */
function ItemControls({ sessionId, thread, itemKey }: { sessionId: string; thread: Thread; itemKey: string }) {
  const controller = useController();
  const busy = useStrata((s) => Boolean(s.gateway.busy[controlKey(thread.id, itemKey)]));
  const pinned = thread.pins.includes(itemKey);
  const removed = thread.removals.includes(itemKey);
  const act = (action: 'pin' | 'unpin' | 'remove' | 'restore') => void controller.gatewayControl({ sessionId, threadId: thread.id, itemKey, action });
  return (
    <span className="gw__controls">
      {pinned && <span className="tag tag--pin">pinned</span>}
      {removed && <span className="tag tag--bad">removed</span>}
      <button type="button" className="btn btn--small" disabled={busy || removed} onClick={() => act(pinned ? 'unpin' : 'pin')} aria-label={`${pinned ? 'Unpin' : 'Pin'} ${itemKey}`}>
        {pinned ? 'Unpin' : 'Pin'}
      </button>
      <button type="button" className="btn btn--small btn--danger" disabled={busy || pinned} onClick={() => act(removed ? 'restore' : 'remove')} aria-label={`${removed ? 'Restore' : 'Remove'} ${itemKey}`}>
        {removed ? 'Restore' : 'Remove'}
      </button>
    </span>
  );
}
