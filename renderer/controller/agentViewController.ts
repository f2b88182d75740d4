import type { ItemDto, StrataApi, StrataEvent } from '../../engine/contract';
import type { AskedControl } from '../store/controls/controlsActions';
import { agentKey, itemKey, RUN_KEY } from '../store/controls/controlsSlice';
import type { StrataStore } from '../store/store';

/** What the agent view asks of the host: generations of the selected agent, item, agent and run controls. */
export interface AgentViewController {
  /** The selected agent's generation list and the generation being viewed (current unless one was picked). */
  loadGenerations(agentId: string): Promise<void>;
  /** Inspect generation `number` of the selected agent (null: follow the current one). */
  viewGeneration(number: number | null): Promise<void>;
  /** Diff two generations of the selected agent. */
  diffGenerations(from: number, to: number): Promise<void>;
  pin(itemId: string): Promise<void>;
  unpin(itemId: string): Promise<void>;
  remove(itemId: string): Promise<void>;
  verify(itemId: string): Promise<void>;
  /** Promote an item into the engine pool as a finding. */
  promote(itemId: string): Promise<void>;
  promoteToMemory(itemId: string): Promise<void>;
  /** Add a constraint the user typed, of the agent's task (`[user-constraint]`); resolves to the added item, or the error to show (nothing was added). */
  addConstraint(agentId: string, c: { text: string; title?: string; pinned: boolean }): Promise<{ item: ItemDto } | { error: string }>;
  /** Ask before `change` on the item: show which agents it makes start a new generation and what their cache loses (`[change-preview]`). */
  askChange(itemId: string, change: AskedControl, title: string): Promise<void>;
  /** Use the control that asked, then close the question. */
  confirmChange(): Promise<void>;
  /** Close the question; nothing changes. */
  cancelChange(): void;
  rebuild(agentId: string): Promise<void>;
  /** Rebuild the selected agent from its generation `number` (`[restore-generation]`), then follow the current one. */
  restoreGeneration(number: number): Promise<void>;
  refresh(agentId: string, reason?: string): Promise<void>;
  loadRuns(): Promise<void>;
  startRun(): Promise<void>;
  pauseRun(runId: string): Promise<void>;
  /** A paused run ticks again. */
  resumeRun(runId: string): Promise<void>;
  /** Pause, resume or cancel one agent of the current run (the host's `controlAgent`). */
  controlAgent(agentId: string, action: AgentAction): Promise<void>;
  stepRun(runId: string, agentId?: string): Promise<void>;
  stopRun(runId: string): Promise<void>;
  /** Called with every host event after it reached the store: reload what it made stale. */
  onEvent(event: StrataEvent): void;
}

/** What an operator can do to one agent of the run. */
type AgentAction = 'pause' | 'resume' | 'cancel';

const AGENT_ACTION_DONE: Record<AgentAction, string> = { pause: 'paused: it takes no turn until resumed', resume: 'resumed: it takes its next turn in order', cancel: 'cancelled: it takes no more turns' };

/** Host events the agent view needs beyond `agent.updated` and `log`. */
export const AGENT_VIEW_EVENTS = ['generation.started', 'item.changed', 'run.changed', 'run.progress'] as const;

const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

export function createAgentViewController(api: StrataApi, store: StrataStore): AgentViewController {
  const { dispatch } = store.getState();
  const selected = () => store.getState().ui.selectedAgentId;

  /** Runs `task` at most once at a time per key; a call while it runs queues exactly one more run. */
  const inFlight = new Map<string, { again: boolean; done: Promise<void> }>();
  const coalesce = (key: string, task: () => Promise<void>): Promise<void> => {
    const running = inFlight.get(key);
    if (running) {
      running.again = true;
      return running.done;
    }
    const entry = { again: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        do {
          entry.again = false;
          await task();
        } while (entry.again);
      } finally {
        inFlight.delete(key);
      }
    })();
    inFlight.set(key, entry);
    return entry.done;
  };

  const loadList = async (agentId: string) => {
    dispatch({ type: 'generations.loading', agentId, part: 'list' });
    try {
      const { generations } = await api.listGenerations({ agentId });
      dispatch({ type: 'generations.list', agentId, generations });
    } catch (err) {
      dispatch({ type: 'generations.failed', agentId, part: 'list', message: message(err) });
    }
  };

  const loadDetail = (agentId: string) =>
    coalesce(`detail:${agentId}`, async () => {
      const number = store.getState().generations.viewed;
      dispatch({ type: 'generations.loading', agentId, part: 'detail' });
      try {
        const detail = await api.getGeneration(number === null ? { agentId } : { agentId, number });
        // The operator may have picked another generation meanwhile; that load follows.
        if (store.getState().generations.viewed === number) dispatch({ type: 'generation.detail', detail });
      } catch (err) {
        dispatch({ type: 'generations.failed', agentId, part: 'detail', message: message(err) });
      }
    });

  const reloadAgent = (agentId: string) => coalesce(`agent:${agentId}`, () => Promise.all([loadList(agentId), loadDetail(agentId)]).then(() => undefined));

  /** One control: pending, then the result line or the host's error, under `key`. */
  const control = async <T>(key: string, label: string, call: () => Promise<T>, done: (result: T) => string | Promise<string>): Promise<void> => {
    dispatch({ type: 'control.pending', key, label });
    let result: T;
    try {
      result = await call();
    } catch (err) {
      dispatch({ type: 'control.failed', key, label, message: `${label} failed: ${message(err)}` });
      return;
    }
    dispatch({ type: 'control.done', key, label, message: await done(result) });
  };

  const itemChanged = (change: 'pinned' | 'unpinned' | 'verified' | 'promoted', item: ItemDto) =>
    dispatch({ type: 'event', event: { name: 'item.changed', payload: { change, itemId: item.id, item } } });

  const afterItem = async () => {
    const agentId = selected();
    if (agentId) await loadList(agentId);
  };

  const diffGenerations = async (from: number, to: number): Promise<void> => {
    const agentId = selected();
    if (!agentId) return;
    dispatch({ type: 'generation.diffPick', from, to });
    dispatch({ type: 'generations.loading', agentId, part: 'diff' });
    try {
      const diff = await api.diffGenerations({ agentId, from, to });
      dispatch({ type: 'generation.diff', diff });
    } catch (err) {
      dispatch({ type: 'generations.failed', agentId, part: 'diff', message: message(err) });
    }
  };

  const controls: Record<AskedControl, (itemId: string) => Promise<void>> = {
    remove: (itemId) => self.remove(itemId),
    verify: (itemId) => self.verify(itemId),
    promote: (itemId) => self.promote(itemId),
  };

  const self: AgentViewController = {
    loadGenerations: (agentId) => reloadAgent(agentId),

    async askChange(itemId, change, title) {
      dispatch({ type: 'control.ask', itemId, change, title });
      try {
        const { agents } = await api.previewItemChange({ itemId, change });
        dispatch({ type: 'control.preview', itemId, change, agents });
      } catch (err) {
        dispatch({ type: 'control.previewFailed', itemId, change, message: `The preview failed: ${message(err)}` });
      }
    },
    async confirmChange() {
      const asked = store.getState().controls.confirm;
      if (!asked) return;
      dispatch({ type: 'control.askClose' });
      await controls[asked.change](asked.itemId);
    },
    cancelChange: () => dispatch({ type: 'control.askClose' }),

    async viewGeneration(number) {
      dispatch({ type: 'generation.view', number });
      const agentId = selected();
      if (agentId) await loadDetail(agentId);
    },

    diffGenerations,

    pin: (itemId) =>
      control(itemKey(itemId), 'pin', () => api.pin({ itemId }), async ({ item }) => {
        itemChanged('pinned', item);
        await afterItem();
        return 'Pinned: enters every context whole, in L1, from the next boundary.';
      }),
    unpin: (itemId) =>
      control(itemKey(itemId), 'unpin', () => api.unpin({ itemId }), async ({ item }) => {
        itemChanged('unpinned', item);
        await afterItem();
        return 'Unpinned from the next boundary.';
      }),
    verify: (itemId) =>
      control(itemKey(itemId), 'verify', () => api.verify({ itemId }), ({ item }) => {
        itemChanged('verified', item);
        return 'Verified.';
      }),
    promote: (itemId) =>
      control(itemKey(itemId), 'promote', () => api.promote({ itemId, target: 'pool' }), ({ item }) => {
        itemChanged('promoted', item);
        return `Promoted into the pool as a ${item.class.replace('_', ' ')}.`;
      }),
    promoteToMemory: (itemId) =>
      control(itemKey(itemId), 'promote to memory', () => api.promoteToMemory({ itemId }), ({ entry }) => `Proposed to project memory as ${entry.state} ${entry.id} (verify it in Memory).`),
    async addConstraint(agentId, c) {
      try {
        const { item } = await api.addConstraint({ agentId, text: c.text, pinned: c.pinned, ...(c.title ? { title: c.title } : {}) });
        await afterItem();
        return { item };
      } catch (err) {
        return { error: message(err) };
      }
    },
    remove: (itemId) =>
      control(itemKey(itemId), 'remove', () => api.remove({ itemId }), async () => {
        dispatch({ type: 'event', event: { name: 'item.changed', payload: { change: 'removed', itemId, item: null } } });
        await afterItem();
        return 'Removed from the pool; agents holding it rebuild at their next build.';
      }),

    rebuild: (agentId) =>
      control(agentKey(agentId), 'rebuild', () => api.rebuild({ agentId }), async ({ generation }) => {
        dispatch({ type: 'generation.view', number: null });
        await reloadAgent(agentId);
        return `Rebuilt: generation ${generation.number} · ${generation.boundary.reason}`;
      }),
    async restoreGeneration(number) {
      const agentId = selected();
      if (!agentId) return;
      await control(agentKey(agentId), 'restore', () => api.restoreGeneration({ agentId, number }), async ({ generation, restored, missing }) => {
        dispatch({ type: 'generation.view', number: null });
        await reloadAgent(agentId);
        const back = restored.length === 0 ? 'every item of it was still in the pool' : `${restored.length} item${restored.length === 1 ? '' : 's'} back in the pool`;
        const lost = missing.length === 0 ? '' : ` · ${missing.length} could not come back whole (${missing.slice(0, 3).join(', ')}${missing.length > 3 ? '…' : ''})`;
        return `Restored from generation ${number}: generation ${generation.number} started · ${back}${lost}.`;
      });
    },
    refresh: (agentId, reason) =>
      control(agentKey(agentId), 'refresh', () => api.refresh(reason ? { agentId, reason } : { agentId }), async (r) => {
        dispatch({ type: 'generation.view', number: null });
        await reloadAgent(agentId);
        if (r.from >= 1) await diffGenerations(r.from, r.to);
        return r.text;
      }),

    async loadRuns() {
      try {
        const { runs } = await api.listRuns({});
        dispatch({ type: 'runs.list', runs });
      } catch (err) {
        dispatch({ type: 'control.failed', key: RUN_KEY, label: 'list runs', message: `Runs could not be listed: ${message(err)}` });
      }
    },
    startRun: () =>
      control(RUN_KEY, 'start', () => api.startRun({ driver: 'trace' }), ({ run }) => {
        dispatch({ type: 'run.result', run });
        return `Run ${run.runId} ${run.status}.`;
      }),
    pauseRun: (runId) =>
      control(RUN_KEY, 'pause', () => api.pauseRun({ runId }), ({ run }) => {
        dispatch({ type: 'run.result', run });
        return `Run ${run.runId} ${run.status}.`;
      }),
    resumeRun: (runId) =>
      control(RUN_KEY, 'resume', () => api.resumeRun({ runId }), ({ run }) => {
        dispatch({ type: 'run.result', run });
        return `Run ${run.runId} ${run.status}.`;
      }),
    controlAgent: (agentId, action) =>
      control(agentKey(agentId), `${action} agent`, () => api.controlAgent({ agentId, action }), () => `${agentId} ${AGENT_ACTION_DONE[action]}.`),
    stepRun: (runId, agentId) =>
      control(RUN_KEY, 'step', () => api.stepRun(agentId ? { runId, agentId } : { runId }), ({ run }) => {
        dispatch({ type: 'run.result', run });
        return `Stepped: turn ${run.turns} · run ${run.status}.`;
      }),
    stopRun: (runId) =>
      control(RUN_KEY, 'stop', () => api.stopRun({ runId }), ({ run }) => {
        dispatch({ type: 'run.result', run });
        return `Run ${run.runId} ${run.status}${run.reason ? ` · ${run.reason}` : ''}.`;
      }),

    onEvent(event) {
      const agentId = selected();
      if (!agentId) return;
      if (event.name === 'generation.started' && event.payload.agentId === agentId) {
        void reloadAgent(agentId);
      } else if (event.name === 'agent.updated' && event.payload.agent.agentId === agentId) {
        const detail = store.getState().generations.detail.value;
        const a = event.payload.agent;
        if (store.getState().generations.viewed !== null) return;
        if (!detail || detail.number !== a.generation) void reloadAgent(agentId);
        else if (detail.tokens !== a.tokens) void loadDetail(agentId);
      }
    },
  };
  return self;
}
