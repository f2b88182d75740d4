import { EVENT_KINDS, type EventKind } from '../store/events/eventKinds';
import type { RootState } from '../store/reduce';
import type { StrataStore } from '../store/store';
import { defaultPaneLayout, type PaneLayout } from '../store/ui/uiActions';

/** Where the panes' layout is kept (the page's localStorage; Electron's renderer has its own). */
export const LAYOUT_KEY = 'strata.panes.v1';

/** The rail's width bounds in CSS pixels (the window may narrow it further, see `clampRail`). */
export const RAIL_MIN_PX = 260;
const RAIL_MAX_PX = 900;
/** The log strip's height bounds in CSS pixels. */
export const STRIP_MIN_PX = 60;
export const STRIP_MAX_PX = 600;

/** What is remembered between loads: the panes and the event kinds hidden. */
export interface StoredLayout {
  layout: PaneLayout;
  hiddenKinds: EventKind[];
}

type KeyValue = Pick<Storage, 'getItem' | 'setItem'>;

const clamp = (n: number, lo: number, hi: number) => Math.round(Math.min(hi, Math.max(lo, n)));
/** A rail width kept within its bounds and within 70% of the window, so the main area stays usable. */
export const clampRail = (px: number, windowWidth = Infinity) => clamp(px, RAIL_MIN_PX, Math.max(RAIL_MIN_PX, Math.min(RAIL_MAX_PX, windowWidth * 0.7)));
/** A strip height kept within its bounds and within half the window. */
export const clampStrip = (px: number, windowHeight = Infinity) => clamp(px, STRIP_MIN_PX, Math.max(STRIP_MIN_PX, Math.min(STRIP_MAX_PX, windowHeight * 0.5)));

const size = (v: unknown, fit: (n: number) => number): number | null => (typeof v === 'number' && Number.isFinite(v) ? fit(v) : null);

/** The stored layout, or the defaults for anything missing, malformed or out of bounds (never throws). */
export function loadLayout(storage: KeyValue | undefined): StoredLayout {
  let raw: unknown;
  try {
    const text = storage?.getItem(LAYOUT_KEY);
    raw = text ? JSON.parse(text) : undefined;
  } catch {
    raw = undefined;
  }
  const o = (typeof raw === 'object' && raw !== null ? raw : {}) as { layout?: Record<string, unknown>; hiddenKinds?: unknown };
  const l = typeof o.layout === 'object' && o.layout !== null ? o.layout : {};
  const kinds = Array.isArray(o.hiddenKinds) ? o.hiddenKinds.filter((k): k is EventKind => (EVENT_KINDS as readonly unknown[]).includes(k)) : [];
  return {
    layout: {
      railWidth: size(l.railWidth, (n) => clampRail(n)) ?? defaultPaneLayout.railWidth,
      railCollapsed: l.railCollapsed === true,
      stripHeight: size(l.stripHeight, (n) => clampStrip(n)) ?? defaultPaneLayout.stripHeight,
      stripCollapsed: l.stripCollapsed === true,
    },
    hiddenKinds: [...new Set(kinds)],
  };
}

/** The store's initial state with the stored layout applied. */
export function withStoredLayout(state: RootState, storage: KeyValue | undefined): RootState {
  const { layout, hiddenKinds } = loadLayout(storage);
  return { ...state, ui: { ...state.ui, layout, hiddenKinds } };
}

/** Write the layout whenever it (or the hidden kinds) changes; returns the unsubscribe. A full or refused storage is ignored. */
export function persistLayout(store: StrataStore, storage: KeyValue | undefined): () => void {
  return store.subscribe((s, prev) => {
    if (s.ui.layout === prev.ui.layout && s.ui.hiddenKinds === prev.ui.hiddenKinds) return;
    try {
      storage?.setItem(LAYOUT_KEY, JSON.stringify({ layout: s.ui.layout, hiddenKinds: s.ui.hiddenKinds } satisfies StoredLayout));
    } catch {
      // Private mode or a full quota: the layout lasts for this page only.
    }
  });
}
