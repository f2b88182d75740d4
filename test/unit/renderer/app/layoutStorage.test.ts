import { describe, expect, it } from 'vitest';
import { clampRail, LAYOUT_KEY, loadLayout, persistLayout, RAIL_MIN_PX, STRIP_MAX_PX, withStoredLayout } from '../../../../renderer/app/layoutStorage';
import { initialRootState } from '../../../../renderer/store/reduce';
import { createStrataStore } from '../../../../renderer/store/store';
import { defaultPaneLayout } from '../../../../renderer/store/ui/uiActions';

/** An in-memory Storage; `refuse` makes writes throw as a full quota does. */
function memoryStorage(initial: Record<string, string> = {}, refuse = false) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => {
      if (refuse) throw new Error('QuotaExceededError');
      data.set(k, v);
    },
  };
}

describe('the panes layout is remembered between loads', () => {
  it('a resized, collapsed layout and the hidden kinds come back after a reload', () => {
    const storage = memoryStorage();
    const store = createStrataStore(withStoredLayout(initialRootState, storage));
    expect(store.getState().ui.layout).toEqual(defaultPaneLayout);
    persistLayout(store, storage);
    store.getState().dispatch({ type: 'layout.set', layout: { railWidth: 333, stripCollapsed: true } });
    store.getState().dispatch({ type: 'events.hideKinds', kinds: ['compaction'] });

    const reloaded = createStrataStore(withStoredLayout(initialRootState, storage));
    expect(reloaded.getState().ui.layout).toEqual({ ...defaultPaneLayout, railWidth: 333, stripCollapsed: true });
    expect(reloaded.getState().ui.hiddenKinds).toEqual(['compaction']);
  });

  it('writes only when the layout or the hidden kinds change', () => {
    const storage = memoryStorage();
    const store = createStrataStore();
    persistLayout(store, storage);
    store.getState().dispatch({ type: 'view.select', view: 'charts' });
    expect(storage.data.has(LAYOUT_KEY)).toBe(false);
    store.getState().dispatch({ type: 'layout.set', layout: { stripHeight: 200 } });
    expect(JSON.parse(storage.data.get(LAYOUT_KEY) ?? '{}').layout.stripHeight).toBe(200);
  });

  it.each([
    ['nothing stored', undefined],
    ['not JSON', '{oops'],
    ['a wrong shape', '[1,2]'],
    ['wrong types', JSON.stringify({ layout: { railWidth: 'wide', railCollapsed: 'yes', stripHeight: null }, hiddenKinds: 'compaction' })],
  ])('falls back to the defaults for %s', (_, text) => {
    const stored = loadLayout(memoryStorage(text === undefined ? {} : { [LAYOUT_KEY]: text }));
    expect(stored).toEqual({ layout: defaultPaneLayout, hiddenKinds: [] });
  });

  it('keeps stored sizes within bounds and drops unknown kinds', () => {
    const stored = loadLayout(memoryStorage({ [LAYOUT_KEY]: JSON.stringify({ layout: { railWidth: 10, stripHeight: 99999 }, hiddenKinds: ['compaction', 'nonsense', 'compaction'] }) }));
    expect(stored.layout.railWidth).toBe(RAIL_MIN_PX);
    expect(stored.layout.stripHeight).toBe(STRIP_MAX_PX);
    expect(stored.hiddenKinds).toEqual(['compaction']);
  });

  it('a refused write or no storage at all leaves the page working', () => {
    const store = createStrataStore(withStoredLayout(initialRootState, undefined));
    persistLayout(store, memoryStorage({}, true));
    expect(() => store.getState().dispatch({ type: 'layout.set', layout: { railCollapsed: true } })).not.toThrow();
    expect(store.getState().ui.layout.railCollapsed).toBe(true);
  });

  it('the rail never takes more than 70% of the window', () => {
    expect(clampRail(2000, 1024)).toBe(717);
    expect(clampRail(100, 1024)).toBe(RAIL_MIN_PX);
    expect(clampRail(400, 1024)).toBe(400);
  });
});
