import { type FormEvent, useEffect, useId, useState } from 'react';
import type { ProviderSettingsDto, RunDto } from '../../../engine/contract';
import { MODEL_RUN_TASK_MAX } from '../../../engine/shared/limits';
import { useController } from '../../controller/StoreContext';
import { defaultModelOf, MODEL_PROVIDERS, modelRunProblem, type ModelProvider } from '../../store/runs/modelRunForm';
import './startModelRun.css';

type Settings = { status: 'loading' } | { status: 'ready'; providers: ProviderSettingsDto[] } | { status: 'error'; message: string };

/** Whether the host has the provider's key, said before anything is sent (never the key itself). */
function KeyNeed({ provider, settings }: { provider: ModelProvider; settings: Settings }) {
  const p = MODEL_PROVIDERS[provider];
  if (settings.status === 'loading') return <li>Checking whether the host has {p.label}’s key ({p.keyVar})…</li>;
  if (settings.status === 'error') return <li className="smr__warn">{settings.message} The run needs <code>{p.keyVar}</code> set where Strata runs.</li>;
  const s = settings.providers.find((x) => x.provider === provider);
  if (s?.keyPresent) return <li className="smr__ok" data-key-present="true">✓ <code>{p.keyVar}</code> is set in the host’s environment.</li>;
  return (
    <li className="smr__warn" data-key-present="false">
      ✗ <code>{p.keyVar}</code> is not set, so the host will refuse this run. Set it in the environment Strata is started from and restart Strata (a key is never typed here).
    </li>
  );
}

function EndpointNeed({ provider, settings }: { provider: ModelProvider; settings: Settings }) {
  const p = MODEL_PROVIDERS[provider];
  const url = settings.status === 'ready' ? settings.providers.find((x) => x.provider === provider)?.baseUrl : null;
  if (url) return <li>Calls go to <code>{url}</code> (<code>{p.baseUrlVar}</code>).</li>;
  const other = provider === 'openai' ? 'an OpenAI-compatible server such as vLLM, llama.cpp or Ollama' : 'another server';
  return <li>Calls go to {p.label}’s own API; set <code>{p.baseUrlVar}</code> for {other}.</li>;
}

/**
 * The form that starts a model run in a project folder (`[run-model-form]`): provider, model (the
 * provider's default until edited) and task. Before anything is sent it says what the run needs: the
 * provider's key variable and whether the host has it, where calls go, which commands agents may run.
 * An empty task is refused here; a refusal of the host is said in words and nothing started.
 */
export function StartModelRun({ onClose, onStarted }: { onClose: () => void; onStarted: (run: RunDto) => void }) {
  const controller = useController();
  const ids = useId();
  const [settings, setSettings] = useState<Settings>({ status: 'loading' });
  const [provider, setProvider] = useState<ModelProvider>('anthropic');
  // The model typed for each provider; until then its default shows (the host's model when its settings name one).
  const [edited, setEdited] = useState<Partial<Record<ModelProvider, string>>>({});
  const [task, setTask] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void controller.loadProviderSettings().then((r) => {
      if (live) setSettings('error' in r ? { status: 'error', message: r.error } : { status: 'ready', providers: r.providers });
    });
    return () => {
      live = false;
    };
  }, [controller]);

  const model = edited[provider] ?? defaultModelOf(provider, settings.status === 'ready' ? settings.providers : []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const problem = modelRunProblem({ model, task });
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    const r = await controller.startModelRun({ provider, model, task });
    setBusy(false);
    if ('error' in r) return setError(r.error);
    onStarted(r.run);
  };

  return (
    <form
      className="smr"
      aria-label="Start a model run"
      onSubmit={(e) => void submit(e)}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) onClose();
      }}
    >
      <p className="smr__title">
        <b>Start a model run</b> <span className="smr__muted">a primary agent works on your task in this folder, through a real provider</span>
      </p>
      <div className="smr__row">
        <label className="smr__field">
          <span className="smr__label">Provider</span>
          <select className="smr__input" value={provider} onChange={(e) => setProvider(e.target.value as ModelProvider)} disabled={busy}>
            {(Object.keys(MODEL_PROVIDERS) as ModelProvider[]).map((p) => (
              <option key={p} value={p}>
                {MODEL_PROVIDERS[p].label}
              </option>
            ))}
          </select>
        </label>
        <label className="smr__field smr__field--grow">
          <span className="smr__label">Model</span>
          <input
            className="smr__input"
            value={model}
            disabled={busy}
            spellCheck={false}
            onChange={(e) => setEdited({ ...edited, [provider]: e.target.value })}
          />
        </label>
      </div>
      <label className="smr__label" htmlFor={`${ids}-task`}>
        Task <span className="smr__muted">what the run should do; its agents read this folder’s files</span>
      </label>
      <textarea id={`${ids}-task`} className="smr__input smr__task" value={task} rows={4} autoFocus disabled={busy} onChange={(e) => setTask(e.target.value)} aria-describedby={`${ids}-count`} placeholder="e.g. Find why the date parser fails on leap days and fix it; run the tests." />
      <span id={`${ids}-count`} className={`smr__count${task.length > MODEL_RUN_TASK_MAX ? ' smr__count--over' : ''}`}>
        {task.length.toLocaleString('en-US')} / {MODEL_RUN_TASK_MAX.toLocaleString('en-US')} characters
      </span>
      <section className="smr__needs" aria-label="What this run needs">
        <ul>
          <KeyNeed provider={provider} settings={settings} />
          <EndpointNeed provider={provider} settings={settings} />
          <li>
            Agents list, read and search this folder’s files; they run a command only where an entry of <code>[tools] allow</code> in its <code>strata.toml</code> permits it (none by default), e.g. <code>allow = ["npm test"]</code>.
          </li>
          <li>Every turn is a real call billed to the key’s account; ■ Stop ends the run.</li>
        </ul>
      </section>
      {error && (
        <p className="smr__error" role="alert">
          {error}
        </p>
      )}
      <div className="smr__actions">
        <button type="submit" className="btn btn--primary" disabled={busy}>
          {busy ? 'Starting…' : '▶ Start model run'}
        </button>
        <button type="button" className="btn" disabled={busy} onClick={onClose}>
          Cancel
        </button>
      </div>
    </form>
  );
}
