import type { ComparisonStrategy, EventName, StrataApi, StrataEvent } from '../../engine/contract';
import { MAX_TRACE_CONTENT_BYTES } from '../../engine/shared/limits';
import { ApiError } from '../api/ApiError';
import type { StrataStore } from '../store/store';
import { importErrorText } from '../store/traces/importErrorText';

/** What the Compare, Memory and Skills views ask of the host (through the controller only). */
export interface CompareMemoryController {
  loadTraces(): Promise<void>;
  /** Import a file the user picked or dropped, sent as text (`importTraceContent`); adds it to the selection. */
  importTraceFile(file: { name: string; size: number; text(): Promise<string> }): Promise<void>;
  /** Start a comparison at one `budget` or at each of `budgets`. */
  startComparison(args: { traceIds: string[]; strategies: ComparisonStrategy[]; budget?: number; budgets?: number[]; ttl?: '5m' | '1h'; model?: string; window?: number }): Promise<void>;
  /** The workspace's comparisons, newest first (the history to reopen). */
  loadComparisons(): Promise<void>;
  /** Show a comparison of the history: its saved result. */
  openComparison(comparisonId: string): Promise<void>;
  /** Stop a running comparison (its replay workers stop; finished replays keep their results). */
  cancelComparison(comparisonId: string): Promise<void>;
  /** Remove an imported trace from the catalog (comparisons that used it keep their saved results). */
  removeTrace(traceId: string): Promise<void>;
  loadMemory(): Promise<void>;
  verifyMemory(id: string, revision: number): Promise<void>;
  retireMemory(id: string, revision: number): Promise<void>;
  /** Undo a verify (`[memory-unverify]`): the entry goes back to candidate. */
  unverifyMemory(id: string, revision: number): Promise<void>;
  /** Edit an entry's title and body (`[memory-edit]`); true when it landed (the entry is then a candidate), else the error is on the entry. */
  editMemory(id: string, revision: number, text: { title: string; body: string }): Promise<boolean>;
  /** Promote a candidate item to project memory (lands as an unverified candidate entry). */
  promoteCandidate(itemId: string): Promise<void>;
  /** `confirm` must be the contract's confirmation words; the host refuses anything else. */
  purgeMemory(confirm: string): Promise<void>;
  loadSkills(): Promise<void>;
  /** The promotable items of an agent's current generation. */
  loadCandidates(agentId: string): Promise<void>;
}

/** The events these views need (added to the controller's one subscription). */
export const compareMemoryEvents: EventName[] = ['trace.imported', 'trace.removed', 'comparison.progress', 'memory.changed'];

/** Item classes worth keeping beyond this run. */
const PROMOTABLE: ReadonlySet<string> = new Set(['finding', 'task_state', 'project_memory']);

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const codeOf = (err: unknown) => (err instanceof ApiError ? err.code : 'internal');

export function createCompareMemoryController(api: StrataApi, store: StrataStore): CompareMemoryController & { onEvent(event: StrataEvent): void; resync(): void } {
  const { dispatch } = store.getState();

  const loadComparison = async (comparisonId: string) => {
    try {
      const { comparison } = await api.getComparison({ comparisonId });
      dispatch({ type: 'compare.loaded', comparison });
    } catch (err) {
      dispatch({ type: 'compare.error', message: message(err) });
    }
  };

  const loadComparisons = async () => {
    try {
      const { comparisons } = await api.listComparisons({});
      dispatch({ type: 'compare.history', comparisons });
    } catch (err) {
      dispatch({ type: 'compare.error', message: message(err) });
    }
  };

  const c: CompareMemoryController & { onEvent(event: StrataEvent): void; resync(): void } = {
    async loadTraces() {
      dispatch({ type: 'traces.loading' });
      try {
        const { traces } = await api.listTraces({});
        dispatch({ type: 'traces.snapshot', traces });
        const form = store.getState().comparisons.form;
        if (form.traceIds.length === 0 && traces[0]) dispatch({ type: 'compare.form', form: { traceIds: [traces[0].id] } });
      } catch (err) {
        dispatch({ type: 'traces.error', message: message(err) });
      }
    },
    async importTraceFile(file) {
      if (file.size > MAX_TRACE_CONTENT_BYTES) {
        dispatch({ type: 'traces.error', message: `${file.name} is ${(file.size / 2 ** 20).toFixed(1)} MiB; traces up to ${MAX_TRACE_CONTENT_BYTES / 2 ** 20} MiB can be imported here. Import a larger file by its path (strata import <file>).` });
        return;
      }
      dispatch({ type: 'traces.importing', name: file.name });
      try {
        const content = await file.text();
        const { trace, alreadyImported } = await api.importTraceContent({ name: file.name, content });
        dispatch({ type: 'traces.imported', trace, alreadyImported });
        dispatch({ type: 'compare.addTrace', traceId: trace.id });
      } catch (err) {
        dispatch({ type: 'traces.error', message: importErrorText(file.name, err instanceof ApiError ? err : { message: message(err) }) });
      }
    },
    async startComparison(args) {
      dispatch({ type: 'compare.starting' });
      try {
        const { comparison } = await api.startComparison(args);
        dispatch({ type: 'compare.loaded', comparison, current: true });
        // The run may have ended before the subscription saw it.
        if (comparison.status !== 'running') await loadComparison(comparison.comparisonId);
        await loadComparisons();
      } catch (err) {
        dispatch({ type: 'compare.error', message: message(err) });
      }
    },
    loadComparisons,
    async openComparison(comparisonId) {
      dispatch({ type: 'compare.open', comparisonId });
      await loadComparison(comparisonId);
    },
    async cancelComparison(comparisonId) {
      try {
        const { comparison } = await api.cancelComparison({ comparisonId });
        dispatch({ type: 'compare.loaded', comparison });
        await loadComparisons();
      } catch (err) {
        dispatch({ type: 'compare.error', message: message(err) });
      }
    },
    async removeTrace(traceId) {
      dispatch({ type: 'traces.removing', traceId });
      try {
        await api.removeTrace({ traceId });
        dispatch({ type: 'traces.removed', traceId });
        const form = store.getState().comparisons.form;
        if (form.traceIds.includes(traceId)) dispatch({ type: 'compare.form', form: { traceIds: form.traceIds.filter((id) => id !== traceId) } });
        // A comparison that used it now says it is gone.
        const current = store.getState().comparisons.currentId;
        if (current) await loadComparison(current);
        await loadComparisons();
      } catch (err) {
        dispatch({ type: 'traces.error', message: `Could not remove the trace: ${message(err)}` });
      }
    },
    async loadMemory() {
      dispatch({ type: 'memory.loading' });
      try {
        const { entries } = await api.listMemory({});
        dispatch({ type: 'memory.snapshot', entries });
      } catch (err) {
        dispatch({ type: 'memory.error', message: message(err) });
      }
    },
    async verifyMemory(id, revision) {
      dispatch({ type: 'memory.changing', id });
      try {
        dispatch({ type: 'memory.entry', entry: (await api.verifyMemory({ id, revision })).entry });
      } catch (err) {
        dispatch({ type: 'memory.entryError', id, code: codeOf(err), message: message(err) });
      }
    },
    async retireMemory(id, revision) {
      dispatch({ type: 'memory.changing', id });
      try {
        dispatch({ type: 'memory.entry', entry: (await api.retireMemory({ id, revision })).entry });
      } catch (err) {
        dispatch({ type: 'memory.entryError', id, code: codeOf(err), message: message(err) });
      }
    },
    async unverifyMemory(id, revision) {
      dispatch({ type: 'memory.changing', id });
      try {
        dispatch({ type: 'memory.entry', entry: (await api.unverifyMemory({ id, revision })).entry });
      } catch (err) {
        dispatch({ type: 'memory.entryError', id, code: codeOf(err), message: message(err) });
      }
    },
    async editMemory(id, revision, text) {
      dispatch({ type: 'memory.changing', id });
      try {
        dispatch({ type: 'memory.entry', entry: (await api.editMemory({ id, revision, title: text.title, body: text.body })).entry });
        return true;
      } catch (err) {
        dispatch({ type: 'memory.entryError', id, code: codeOf(err), message: message(err) });
        return false;
      }
    },
    async promoteCandidate(itemId) {
      dispatch({ type: 'memory.changing', id: itemId });
      try {
        const { entry } = await api.promoteToMemory({ itemId });
        dispatch({ type: 'memory.entry', entry });
      } catch (err) {
        dispatch({ type: 'memory.entryError', id: itemId, code: codeOf(err), message: message(err) });
      }
    },
    async purgeMemory(confirm) {
      dispatch({ type: 'memory.purging' });
      try {
        const report = await api.purgeMemory({ confirm: confirm as 'purge project memory' });
        dispatch({ type: 'memory.purged', report });
        await c.loadMemory();
      } catch (err) {
        dispatch({ type: 'memory.error', message: `Purge failed: ${message(err)}` });
      }
    },
    async loadSkills() {
      dispatch({ type: 'skills.loading' });
      try {
        dispatch({ type: 'skills.snapshot', skills: await api.listSkills({}) });
      } catch (err) {
        dispatch({ type: 'skills.error', message: message(err) });
      }
    },
    async loadCandidates(agentId) {
      try {
        const generation = await api.getGeneration({ agentId, droppedLimit: 0 });
        const items = generation.included.map((i) => i.item).filter((item) => PROMOTABLE.has(item.class) || item.kind === 'decision' || item.kind === 'constraint');
        dispatch({ type: 'memory.candidates', agentId, items });
      } catch (err) {
        dispatch({ type: 'memory.candidates', agentId, items: [], error: message(err) });
      }
    },
    onEvent(event) {
      if (event.name === 'comparison.progress' && event.payload.status !== 'running') {
        void loadComparison(event.payload.comparisonId);
        void loadComparisons();
      }
      if (event.name === 'memory.changed' && event.payload.change === 'purged') void c.loadMemory();
    },
    /** After a reconnect: lists again what these views show. */
    resync() {
      void c.loadTraces();
      void c.loadMemory();
      const current = store.getState().comparisons.currentId;
      if (current) void loadComparison(current);
      void loadComparisons();
    },
  };
  return c;
}
