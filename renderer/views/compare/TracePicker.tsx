import { useMemo, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { COMPARISON_MAX_TRACES } from '../../../engine/shared/limits';
import { useController, useDispatch, useStrata } from '../../controller/StoreContext';
import { pickedTraceIds, selectCompareForm } from '../../store/comparisons/comparisonsSelectors';
import { selectTracesState } from '../../store/traces/tracesSelectors';

/** Pick the imported traces to compare on (up to the contract's cap), import one by the file dialog or by dropping a file, or remove one (after a confirmation). */
export function TracePicker() {
  const traces = useStrata(selectTracesState);
  const form = useStrata(selectCompareForm);
  const dispatch = useDispatch();
  const controller = useController();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  // The trace whose removal waits for a confirmation.
  const [confirming, setConfirming] = useState<string | null>(null);
  const picked = useMemo(() => pickedTraceIds(traces.list, form.traceIds), [traces.list, form.traceIds]);
  const full = picked.length >= COMPARISON_MAX_TRACES;

  const setPicked = (traceIds: string[]) => dispatch({ type: 'compare.form', form: { traceIds } });
  const toggle = (id: string, on: boolean) => {
    const want = new Set(picked);
    if (on) want.add(id);
    else want.delete(id);
    setPicked(pickedTraceIds(traces.list, [...want]).slice(0, COMPARISON_MAX_TRACES));
  };

  const importFiles = (files: FileList | null | undefined) => {
    const file = files?.[0];
    if (file) void controller.importTraceFile(file);
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    importFiles(e.dataTransfer?.files);
  };
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      input.current?.click();
    }
  };

  return (
    <fieldset className="cmp__box cmp__trace">
      <legend>Traces</legend>
      <fieldset className="cmp__picks" aria-describedby="cmp-trace-count">
        <legend className="cmp__label">Imported traces</legend>
        <div className="cmp__row">
          <button type="button" className="cmp__btn cmp__btn--small" disabled={traces.list.length === 0 || picked.length === Math.min(traces.list.length, COMPARISON_MAX_TRACES)} onClick={() => setPicked(traces.list.slice(0, COMPARISON_MAX_TRACES).map((t) => t.id))}>
            Select all
          </button>
          <button type="button" className="cmp__btn cmp__btn--small" disabled={picked.length === 0} onClick={() => setPicked([])}>
            Clear
          </button>
          <span id="cmp-trace-count" className="cmp__note" aria-live="polite">
            {traces.list.length === 0 ? 'none imported' : `${picked.length} of ${traces.list.length} selected`}
            {full && traces.list.length > COMPARISON_MAX_TRACES ? ` · at most ${COMPARISON_MAX_TRACES} per comparison: clear one to pick another` : ''}
          </span>
        </div>
        {traces.list.length === 0 ? (
          <p className="cmp__note">{traces.status === 'loading' ? 'Loading traces…' : 'No trace imported yet.'}</p>
        ) : (
          <ul className="cmp__trace-list">
            {traces.list.map((t) => {
              const text = `${t.name} · ${t.steps} steps · ${t.format}`;
              const on = picked.includes(t.id);
              return (
                <li key={t.id}>
                  <label className="cmp__check" title={text}>
                    <input type="checkbox" value={t.id} checked={on} disabled={!on && full} onChange={(e) => toggle(t.id, e.target.checked)} />
                    <span className="cmp__check-text">{text}</span>
                  </label>
                  {confirming === t.id ? (
                    <span className="cmp__confirm" role="group" aria-label={`Remove ${t.name}?`}>
                      <span>Remove from the catalog? Past comparisons keep their results.</span>
                      <button
                        type="button"
                        className="cmp__btn cmp__btn--small"
                        onClick={() => {
                          setConfirming(null);
                          void controller.removeTrace(t.id);
                        }}
                      >
                        Remove
                      </button>
                      <button type="button" className="cmp__btn cmp__btn--small" onClick={() => setConfirming(null)}>
                        Keep
                      </button>
                    </span>
                  ) : (
                    <button type="button" className="cmp__btn cmp__btn--small" disabled={traces.removing === t.id} aria-label={`Remove ${t.name}`} onClick={() => setConfirming(t.id)}>
                      {traces.removing === t.id ? 'Removing…' : 'Remove'}
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {traces.list.length > 0 && picked.length === 0 && <p className="cmp__error">Pick at least one trace.</p>}
      </fieldset>
      <div
        className={`cmp__drop${over ? ' cmp__drop--over' : ''}`}
        role="button"
        tabIndex={0}
        aria-label="Import a trace file: drop it here, or press Enter to choose one"
        aria-busy={traces.importing !== null}
        onClick={() => input.current?.click()}
        onKeyDown={onKey}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        data-testid="trace-drop"
      >
        {traces.importing ? `Importing ${traces.importing}…` : 'Drop a trace file here, or click to choose one (Claude Code, Codex, OpenAI messages, SWE-agent)'}
      </div>
      <input
        ref={input}
        className="cmp__file"
        type="file"
        aria-label="Trace file"
        tabIndex={-1}
        accept=".json,.jsonl,.traj,application/json"
        onChange={(e) => {
          importFiles(e.target.files);
          e.target.value = '';
        }}
      />
      {traces.lastImport && (
        <p className="cmp__note" role="status">
          {importNotice(traces.lastImport, picked.includes(traces.lastImport.traceId), full)}
        </p>
      )}
      {traces.error && (
        <p className="cmp__error" role="alert">
          {traces.error}
        </p>
      )}
    </fieldset>
  );
}

/** What the last import did: imported (or found) the trace, and whether it joined the selection. */
function importNotice(last: { traceId: string; name: string; alreadyImported: boolean }, picked: boolean, full: boolean): string {
  if (!picked && full) return `${last.alreadyImported ? `${last.name} was already imported` : `Imported ${last.name}`}; not selected: a comparison takes at most ${COMPARISON_MAX_TRACES} traces.`;
  return last.alreadyImported ? `${last.name} was already imported; selected it.` : `Imported ${last.name}.`;
}
