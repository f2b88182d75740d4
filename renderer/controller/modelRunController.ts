import type { AgentDto, ProviderSettingsDto, RunDto, StrataApi } from '../../engine/contract';
import { ApiError } from '../api/ApiError';
import { MODEL_PROVIDERS, type ModelProvider } from '../store/runs/modelRunForm';
import { startRunErrorText } from '../store/runs/startRunErrorText';
import type { StrataStore } from '../store/store';
import { RUN_KEY } from '../store/controls/controlsSlice';

const LABEL = 'start model run';

/** A model run as the form sends it. */
export interface ModelRunRequest {
  provider: ModelProvider;
  model: string;
  task: string;
}

/** What the model-run form asks of the host (`[run-model-form]`). */
export interface ModelRunController {
  /** What the host knows of each provider (its base URL, whether a key is set; never the key), or why it could not say. */
  loadProviderSettings(): Promise<{ providers: ProviderSettingsDto[] } | { error: string }>;
  /**
   * Start a model run; resolves to the run (its primary then selected), or to why the host refused
   * it in a person's words (nothing started).
   */
  startModelRun(request: ModelRunRequest): Promise<{ run: RunDto } | { error: string }>;
}

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** The new run's primary among the listed agents: a root primary of the task sent, the one under the run's id first. */
function primaryOf(agents: readonly AgentDto[], run: RunDto, task: string): AgentDto | undefined {
  const roots = agents.filter((a) => a.parent === null && a.role === 'primary' && a.sessionId === undefined && a.task === task);
  return roots.find((a) => a.agentId.startsWith(`${run.runId}.`)) ?? roots[0];
}

export function createModelRunController(api: StrataApi, store: StrataStore, select: (agentId: string) => Promise<void>): ModelRunController {
  const { dispatch } = store.getState();
  return {
    async loadProviderSettings() {
      try {
        return await api.getProviderSettings({});
      } catch (err) {
        return { error: `The host did not say which provider keys it has (${message(err).replace(/\.$/, '')}).` };
      }
    },
    async startModelRun({ provider, model, task }) {
      let run: RunDto;
      dispatch({ type: 'control.pending', key: RUN_KEY, label: LABEL });
      try {
        ({ run } = await api.startRun({ driver: 'model', provider, model: model.trim(), task }));
      } catch (err) {
        // The form shows why; the run bar keeps no line of its own for a run that never began.
        dispatch({ type: 'control.dismiss', key: RUN_KEY });
        return { error: startRunErrorText(provider, err instanceof ApiError ? err : { message: message(err) }) };
      }
      dispatch({ type: 'run.result', run });
      dispatch({ type: 'control.done', key: RUN_KEY, label: LABEL, message: `Run ${run.runId} started with ${MODEL_PROVIDERS[provider].label} ${model.trim()}.` });
      try {
        const { agents } = await api.listAgents({});
        dispatch({ type: 'agents.snapshot', agents });
        const primary = primaryOf(agents, run, task);
        if (primary) await select(primary.agentId);
      } catch {
        // The run started; its agents still reach the tree as `agent.updated` events.
      }
      return { run };
    },
  };
}
