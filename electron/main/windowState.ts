/** A rectangle in screen coordinates (Electron's Rectangle). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is remembered of the main window between launches. */
export interface WindowState {
  bounds: Rect;
  maximized: boolean;
  fullScreen: boolean;
}

export const MIN_WIDTH = 800;
export const MIN_HEIGHT = 500;
export const DEFAULT_SIZE = { width: 1400, height: 900 } as const;
/** How much of the title bar must be on a display for the saved position to count as reachable. */
const VISIBLE = 64;

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The BrowserWindow geometry to open with, from the saved state (any JSON, possibly corrupt) and
 * the displays' work areas now. The saved size is kept within limits and within the largest
 * display; the saved position only when the window's top edge would still be on a display (a
 * monitor that was unplugged must not leave the window off screen), else the window is centred.
 */
export function restoreWindowState(saved: unknown, workAreas: readonly Rect[]): { x?: number; y?: number; width: number; height: number; maximized: boolean; fullScreen: boolean } {
  const s = (typeof saved === 'object' && saved !== null ? saved : {}) as Partial<Record<keyof WindowState, unknown>>;
  const b = (typeof s.bounds === 'object' && s.bounds !== null ? s.bounds : {}) as Partial<Record<keyof Rect, unknown>>;
  const known = workAreas.length > 0;
  const maxW = known ? Math.max(MIN_WIDTH, ...workAreas.map((a) => a.width)) : Number.MAX_SAFE_INTEGER;
  const maxH = known ? Math.max(MIN_HEIGHT, ...workAreas.map((a) => a.height)) : Number.MAX_SAFE_INTEGER;
  const clamp = (v: unknown, min: number, max: number, fallback: number) => (isNum(v) ? Math.round(Math.min(max, Math.max(min, v))) : Math.min(max, fallback));
  const width = clamp(b.width, MIN_WIDTH, maxW, DEFAULT_SIZE.width);
  const height = clamp(b.height, MIN_HEIGHT, maxH, DEFAULT_SIZE.height);
  const out = { width, height, maximized: s.maximized === true, fullScreen: s.fullScreen === true };
  if (!isNum(b.x) || !isNum(b.y)) return out;
  const x = Math.round(b.x);
  const y = Math.round(b.y);
  const reachable = workAreas.some((a) => {
    const overlap = Math.min(x + width, a.x + a.width) - Math.max(x, a.x);
    return overlap >= VISIBLE && y >= a.y && y <= a.y + a.height - VISIBLE;
  });
  return reachable ? { ...out, x, y } : out;
}

/** The state to save: the normal (un-maximized) bounds, so restoring a maximized window un-maximizes to them. */
export function captureWindowState(win: { getNormalBounds(): Rect; isMaximized(): boolean; isFullScreen(): boolean }): WindowState {
  const { x, y, width, height } = win.getNormalBounds();
  return { bounds: { x, y, width, height }, maximized: win.isMaximized(), fullScreen: win.isFullScreen() };
}
