import { describe, expect, it, vi } from 'vitest';
import { type ComparisonDto, MAX_TRACE_CONTENT_BYTES, type StrataApi } from '../../../../engine/contract';
import { ApiError } from '../../../../renderer/api/ApiError';
import { compareMemoryEvents, createCompareMemoryController } from '../../../../renderer/controller/compareMemoryController';
import { createController } from '../../../../renderer/controller/controller';
import { createStrataStore } from '../../../../renderer/store/store';
import { makeComparison, makeMemoryEntry, makeTrace, progressEvent, memoryChanged } from '../compareMemoryFixtures';

function fakeApi() {
  const api = {
    listTraces: vi.fn<StrataApi['listTraces']>(async () => ({ traces: [makeTrace('tr_b'), makeTrace('tr_a')] })),
    importTraceContent: vi.fn<StrataApi['importTraceContent']>(async ({ name }) => ({ trace: makeTrace('tr_up', { name }), alreadyImported: false })),
    startComparison: vi.fn<StrataApi['startComparison']>(async () => ({ comparison: makeComparison({ status: 'running', results: [], progress: { done: 0, total: 2 } }) })),
    getComparison: vi.fn<StrataApi['getComparison']>(async () => ({ comparison: makeComparison() })),
    listComparisons: vi.fn<StrataApi['listComparisons']>(async () => ({ comparisons: [summaryOf(makeComparison())] })),
    cancelComparison: vi.fn<StrataApi['cancelComparison']>(async () => ({ comparison: makeComparison({ status: 'cancelled' }) })),
    removeTrace: vi.fn<StrataApi['removeTrace']>(async ({ traceId }) => ({ traceId })),
    listMemory: vi.fn<StrataApi['listMemory']>(async () => ({ entries: [makeMemoryEntry('m1')] })),
    verifyMemory: vi.fn<StrataApi['verifyMemory']>(async ({ id, revision }) => ({ entry: makeMemoryEntry(id, { revision: revision + 1, state: 'verified', verified: true }) })),
    retireMemory: vi.fn<StrataApi['retireMemory']>(async () => {
      throw new ApiError({ code: 'conflict', message: 'Entry m1 is at revision 2, not 1.' });
    }),
    purgeMemory: vi.fn<StrataApi['purgeMemory']>(async () => ({ deleted: 1, recalledCopiesDeleted: 0, vacuumed: true, walTruncated: true, residual: 'r' })),
  } satisfies Partial<StrataApi>;
  return api as typeof api & StrataApi;
}
const settle = () => new Promise<void>((r) => setTimeout(r, 0));
const summaryOf = ({ comparisonId, status, traces, strategies, budgets, provider, model, startedAt, finishedAt, progress }: ComparisonDto) => ({ comparisonId, status, traces, strategies, budgets, provider, model, startedAt, finishedAt, progress });
const file = (name: string, text: string, size = text.length) => ({ name, size, text: async () => text });

describe('compare and memory controller', () => {
  it('lists traces and preselects the newest when none is picked', async () => {
    const store = createStrataStore();
    await createCompareMemoryController(fakeApi(), store).loadTraces();
    expect(store.getState().traces.list.map((t) => t.id)).toEqual(['tr_b', 'tr_a']);
    expect(store.getState().comparisons.form.traceIds).toEqual(['tr_b']);
  });

  it('keeps a selection made before the traces were listed', async () => {
    const store = createStrataStore();
    store.getState().dispatch({ type: 'compare.form', form: { traceIds: ['tr_a'] } });
    await createCompareMemoryController(fakeApi(), store).loadTraces();
    expect(store.getState().comparisons.form.traceIds).toEqual(['tr_a']);
  });

  it('imports a picked file by content and adds it to the selection; an oversize file is refused before sending', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createCompareMemoryController(api, store);
    await c.loadTraces();
    await c.importTraceFile(file('s.jsonl', '{"type":"user"}'));
    expect(api.importTraceContent).toHaveBeenCalledWith({ name: 's.jsonl', content: '{"type":"user"}' });
    expect(store.getState().comparisons.form.traceIds).toEqual(['tr_b', 'tr_up']);
    // Importing the same file again does not repeat it.
    await c.importTraceFile(file('s.jsonl', '{"type":"user"}'));
    expect(store.getState().comparisons.form.traceIds).toEqual(['tr_b', 'tr_up']);
    expect(store.getState().traces.lastImport).toEqual({ traceId: 'tr_up', name: 's.jsonl', alreadyImported: false });

    await c.importTraceFile(file('huge.jsonl', '', MAX_TRACE_CONTENT_BYTES + 1));
    expect(api.importTraceContent).toHaveBeenCalledTimes(2);
    expect(store.getState().traces.error).toMatch(/huge\.jsonl is 16\.0 MiB; traces up to 16 MiB/);
  });

  it('shows the host’s refusal of an import', async () => {
    const api = fakeApi();
    api.importTraceContent.mockRejectedValueOnce(new ApiError({ code: 'invalid_args', message: 'upload:bad.json:9: unexpected end' }));
    const store = createStrataStore();
    await createCompareMemoryController(api, store).importTraceFile(file('bad.json', '{'));
    expect(store.getState().traces).toMatchObject({ importing: null, error: 'bad.json is not a trace Strata can read: at line 9, unexpected end.' });
  });

  it('starts a comparison, follows its progress, and fetches it when the final progress arrives', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createCompareMemoryController(api, store);
    await c.startComparison({ traceIds: ['tr_b', 'tr_a'], strategies: ['variable', 'full_history_baseline'], budget: 8000 });
    expect(api.startComparison).toHaveBeenCalledWith({ traceIds: ['tr_b', 'tr_a'], strategies: ['variable', 'full_history_baseline'], budget: 8000 });
    expect(store.getState().comparisons.currentId).toBe('cmp-1');
    c.onEvent(progressEvent('cmp-1', 1, 2));
    expect(api.getComparison).not.toHaveBeenCalled();
    c.onEvent(progressEvent('cmp-1', 2, 2, 'finished'));
    await settle();
    expect(api.getComparison).toHaveBeenCalledWith({ comparisonId: 'cmp-1' });
    expect(store.getState().comparisons.byId['cmp-1']?.results).toHaveLength(2);
  });

  it('lists the history, reopens a saved comparison, cancels a running one and lists again', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createCompareMemoryController(api, store);
    await c.loadComparisons();
    expect(store.getState().comparisons.history.map((h) => h.comparisonId)).toEqual(['cmp-1']);
    await c.openComparison('cmp-1');
    expect(api.getComparison).toHaveBeenCalledWith({ comparisonId: 'cmp-1' });
    expect(store.getState().comparisons.currentId).toBe('cmp-1');
    expect(store.getState().comparisons.byId['cmp-1']?.status).toBe('finished');
    await c.cancelComparison('cmp-1');
    expect(api.cancelComparison).toHaveBeenCalledWith({ comparisonId: 'cmp-1' });
    expect(store.getState().comparisons.byId['cmp-1']?.status).toBe('cancelled');
    expect(api.listComparisons).toHaveBeenCalledTimes(2);
    api.cancelComparison.mockRejectedValueOnce(new ApiError({ code: 'conflict', message: 'Comparison "cmp-1" has already ended.' }));
    await c.cancelComparison('cmp-1');
    expect(store.getState().comparisons.error).toBe('Comparison "cmp-1" has already ended.');
  });

  it('removes a trace: it leaves the list and the selection, and the comparison shown is fetched again to say so', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createCompareMemoryController(api, store);
    await c.loadTraces();
    store.getState().dispatch({ type: 'compare.form', form: { traceIds: ['tr_a', 'tr_b'] } });
    store.getState().dispatch({ type: 'compare.loaded', comparison: makeComparison(), current: true });
    api.getComparison.mockResolvedValueOnce({ comparison: makeComparison({ traces: [{ traceId: 'tr_a', name: 'tr_a.jsonl', removed: true }] }) });
    await c.removeTrace('tr_a');
    expect(api.removeTrace).toHaveBeenCalledWith({ traceId: 'tr_a' });
    expect(store.getState().traces.list.map((t) => t.id)).toEqual(['tr_b']);
    expect(store.getState().comparisons.form.traceIds).toEqual(['tr_b']);
    expect(store.getState().comparisons.byId['cmp-1']?.traces[0]?.removed).toBe(true);
    api.removeTrace.mockRejectedValueOnce(new ApiError({ code: 'conflict', message: 'A running comparison replays tr_b.jsonl; cancel it or wait for it to end, then remove the trace.' }));
    await c.removeTrace('tr_b');
    expect(store.getState().traces).toMatchObject({ removing: null, error: expect.stringContaining('cancel it or wait') });
    expect(store.getState().traces.list.map((t) => t.id)).toEqual(['tr_b']);
  });

  it('verifies at a revision, records a conflict on retire, purges and lists again; a purge event lists again', async () => {
    const api = fakeApi();
    const store = createStrataStore();
    const c = createCompareMemoryController(api, store);
    await c.loadMemory();
    await c.verifyMemory('m1', 1);
    expect(store.getState().memory.entries[0]).toMatchObject({ id: 'm1', revision: 2, state: 'verified' });
    await c.retireMemory('m1', 1);
    expect(store.getState().memory.entryError).toEqual({ id: 'm1', code: 'conflict', message: 'Entry m1 is at revision 2, not 1.' });
    await c.purgeMemory('purge project memory');
    expect(api.purgeMemory).toHaveBeenCalledWith({ confirm: 'purge project memory' });
    expect(store.getState().memory.purgeReport).toMatchObject({ deleted: 1 });
    expect(api.listMemory).toHaveBeenCalledTimes(2);
    c.onEvent(memoryChanged('purged', null));
    await settle();
    expect(api.listMemory).toHaveBeenCalledTimes(3);
  });

  it('the app controller subscribes to these views’ events along with the others', async () => {
    const api = { ...fakeApi(), subscribe: vi.fn<StrataApi['subscribe']>(async (events) => ({ events })), health: vi.fn(async () => { throw new Error('stop here'); }), listAgents: vi.fn(async () => ({ agents: [] })) } as unknown as StrataApi & { subscribe: ReturnType<typeof vi.fn> };
    await createController(api, createStrataStore()).sync();
    expect(api.subscribe).toHaveBeenCalledWith(expect.arrayContaining([...compareMemoryEvents, 'agent.updated', 'log']), expect.any(Function));
  });
});
