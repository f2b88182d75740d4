import { useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import { useController, useDispatch, useStrata } from '../../app/StoreContext';
import { selectCompareForm, selectTracesState } from '../../store/compareMemorySelectors';

/** Pick an imported trace, or import one by the file dialog or by dropping a file. */
export function TracePicker() {
  const traces = useStrata(selectTracesState);
  const form = useStrata(selectCompareForm);
  const dispatch = useDispatch();
  const controller = useController();
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

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
      <legend>Trace</legend>
      <div className="cmp__row">
        <label className="cmp__label" htmlFor="cmp-trace">
          Imported trace
        </label>
        <select
          id="cmp-trace"
          className="cmp__select"
          value={form.traceId ?? ''}
          disabled={traces.list.length === 0}
          onChange={(e) => dispatch({ type: 'compare.form', form: { traceId: e.target.value || null } })}
        >
          {traces.list.length === 0 && <option value="">{traces.status === 'loading' ? 'Loading traces…' : 'No trace imported yet'}</option>}
          {traces.list.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name} · {t.steps} steps · {t.format}
            </option>
          ))}
        </select>
      </div>
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
          {traces.lastImport.alreadyImported ? `${traces.lastImport.name} was already imported; selected it.` : `Imported ${traces.lastImport.name}.`}
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
