import { useEffect, useState } from 'react';
import type { IncludedDto } from '../../../engine/contract';
import { useController, useStrata } from '../../controller/StoreContext';
import { tokens } from '../../components/format';
import { selectDiff, selectDiffPick, selectGenerationNumbers } from '../../store/generations/generationsSelectors';

/** Two generations of the selected agent side by side: added, dropped with reasons, compressed, kept. */
export function GenerationDiff() {
  const numbers = useStrata(selectGenerationNumbers);
  const pick = useStrata(selectDiffPick);
  const diff = useStrata(selectDiff);
  const controller = useController();
  const [from, setFrom] = useState<number | null>(pick?.from ?? null);
  const [to, setTo] = useState<number | null>(pick?.to ?? null);

  // Default to the two newest generations, and follow a diff the controller opened (after a refresh).
  useEffect(() => {
    if (pick) {
      setFrom(pick.from);
      setTo(pick.to);
    }
  }, [pick]);
  const f = from ?? numbers[1] ?? null;
  const t = to ?? numbers[0] ?? null;

  if (numbers.length < 2) return <p className="empty">A diff needs two generations; this agent has {numbers.length === 0 ? 'none yet' : 'one'}.</p>;
  const d = diff.value;
  return (
    <section className="diff" aria-label="Generation diff">
      <div className="inspector__head">
        <GenerationSelect label="from" numbers={numbers} value={f} onChange={setFrom} />
        <GenerationSelect label="to" numbers={numbers} value={t} onChange={setTo} />
        <button className="btn" disabled={f === null || t === null || f === t} onClick={() => f !== null && t !== null && void controller.diffGenerations(f, t)}>
          Compare
        </button>
        {diff.status === 'loading' && <span className="muted" role="status">loading…</span>}
      </div>
      {diff.status === 'error' && (
        <p className="notice notice--error" role="alert">
          {diff.error}
        </p>
      )}
      {!d && diff.status !== 'loading' && diff.status !== 'error' && <p className="empty">Pick two generations and press Compare.</p>}
      {d && (
        <>
          <p className="diff__summary" data-diff={`${d.from}-${d.to}`}>
            <b>
              g{d.from} → g{d.to}
            </b>{' '}
            · token delta <span className={d.tokenDelta > 0 ? 'delta--up' : 'delta--down'}>{signedTokens(d.tokenDelta)}</span> · refresh reason: <span className="diff__reason">{d.reason}</span>
          </p>
          <div className="diff__cols">
            <DiffColumn title={`Added (${d.added.length})`} kind="added" entries={d.added.map((e) => ({ e, note: e.why }))} />
            <DiffColumn title={`Dropped (${d.dropped.length})`} kind="dropped" entries={d.dropped.map((x) => ({ e: x.entry, note: `reason: ${x.reason}` }))} />
          </div>
          <h3>Compressed ({d.compressed.length})</h3>
          {d.compressed.length === 0 ? (
            <p className="empty">Nothing compressed.</p>
          ) : (
            <ul className="items" aria-label="Compressed in diff">
              {d.compressed.map((c) => (
                <li key={c.itemId} className="item">
                  {c.itemId} · {c.method} · {tokens(c.from)} → {tokens(c.to)} tokens
                </li>
              ))}
            </ul>
          )}
          <details className="diff__kept">
            <summary>Kept ({d.kept.length})</summary>
            <ul className="items" aria-label="Kept">
              {d.kept.map((e) => (
                <li key={e.item.id} className="item">
                  {e.item.title || e.item.id} · {e.layer} · {tokens(e.tokens)} tok
                </li>
              ))}
            </ul>
          </details>
        </>
      )}
    </section>
  );
}

function DiffColumn({ title, kind, entries }: { title: string; kind: 'added' | 'dropped'; entries: { e: IncludedDto; note: string }[] }) {
  return (
    <div className={`diff__col diff__col--${kind}`}>
      <h3>{title}</h3>
      {entries.length === 0 ? (
        <p className="empty">None.</p>
      ) : (
        <ul className="items" aria-label={kind === 'added' ? 'Added' : 'Dropped in diff'}>
          {entries.map(({ e, note }) => (
            <li key={e.item.id} className="item" data-item-id={e.item.id}>
              <div className="item__main">
                <span className="item__title">{e.item.title || e.item.id}</span>
                <span className={`tag tag--${e.item.class}`}>{e.item.class}</span>
                <span className="muted">{e.layer}</span>
                <span className="item__num">{tokens(e.tokens)} tok</span>
              </div>
              <div className="item__why">{note}</div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A token delta with its sign: +1.2k, −300, 0. */
const signedTokens = (n: number): string => `${n > 0 ? '+' : n < 0 ? '−' : ''}${tokens(Math.abs(n))}`;

/** One end of the diff: a generation number picked from the agent's generations. */
function GenerationSelect({ label, numbers, value, onChange }: { label: 'from' | 'to'; numbers: readonly number[]; value: number | null; onChange: (n: number) => void }) {
  return (
    <label className="picker">
      {label}{' '}
      <select className="input" aria-label={`Diff ${label}`} value={value ?? ''} onChange={(e) => onChange(Number(e.target.value))}>
        {numbers.map((n) => (
          <option key={n} value={n}>
            g{n}
          </option>
        ))}
      </select>
    </label>
  );
}
