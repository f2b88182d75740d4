import { describe, expect, it } from 'vitest';
import { captureWindowState, DEFAULT_SIZE, MIN_HEIGHT, MIN_WIDTH, restoreWindowState } from '../../../electron/main/windowState';

const laptop = { x: 0, y: 0, width: 1920, height: 1050 };
const rightMonitor = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('window state', () => {
  it('restores the saved bounds and maximized/full-screen flags when they fit a display', () => {
    const saved = { bounds: { x: 100, y: 80, width: 1200, height: 800 }, maximized: true, fullScreen: false };
    expect(restoreWindowState(saved, [laptop])).toEqual({ x: 100, y: 80, width: 1200, height: 800, maximized: true, fullScreen: false });
  });

  it('keeps a position on a second monitor while that monitor is there', () => {
    const saved = { bounds: { x: 2200, y: 100, width: 1600, height: 1000 }, maximized: false, fullScreen: false };
    expect(restoreWindowState(saved, [laptop, rightMonitor])).toMatchObject({ x: 2200, y: 100 });
  });

  it('centres a window whose monitor was unplugged instead of opening it off screen', () => {
    const saved = { bounds: { x: 2200, y: 100, width: 1600, height: 1000 }, maximized: false, fullScreen: false };
    const restored = restoreWindowState(saved, [laptop]);
    expect(restored).not.toHaveProperty('x');
    expect(restored).not.toHaveProperty('y');
    expect(restored).toMatchObject({ width: 1600, height: 1000 });
  });

  it('refuses a title bar above or below every display', () => {
    expect(restoreWindowState({ bounds: { x: 10, y: -200, width: 900, height: 600 } }, [laptop])).not.toHaveProperty('y');
    expect(restoreWindowState({ bounds: { x: 10, y: 1040, width: 900, height: 600 } }, [laptop])).not.toHaveProperty('y');
  });

  it('clamps the size between the minimum and the largest display', () => {
    expect(restoreWindowState({ bounds: { x: 0, y: 0, width: 10, height: 10 } }, [laptop])).toMatchObject({ width: MIN_WIDTH, height: MIN_HEIGHT });
    expect(restoreWindowState({ bounds: { x: 0, y: 0, width: 9000, height: 9000 } }, [laptop])).toMatchObject({ width: 1920, height: 1050 });
  });

  it('falls back to the default size for missing, corrupt or hostile state', () => {
    for (const saved of [undefined, null, 'x', 42, [], { bounds: null }, { bounds: { x: 'a', y: {}, width: Number.NaN, height: Infinity } }, { maximized: 'yes' }]) {
      expect(restoreWindowState(saved, [laptop]), JSON.stringify(saved)).toEqual({ ...DEFAULT_SIZE, maximized: false, fullScreen: false });
    }
  });

  it('with no display information still opens at a usable size', () => {
    expect(restoreWindowState(undefined, [])).toEqual({ ...DEFAULT_SIZE, maximized: false, fullScreen: false });
  });

  it('captures the normal bounds, so a maximized window restores to its un-maximized size', () => {
    const win = { getNormalBounds: () => ({ x: 5, y: 6, width: 1000, height: 700 }), isMaximized: () => true, isFullScreen: () => false };
    const state = captureWindowState(win);
    expect(state).toEqual({ bounds: { x: 5, y: 6, width: 1000, height: 700 }, maximized: true, fullScreen: false });
    expect(restoreWindowState(JSON.parse(JSON.stringify(state)), [laptop])).toEqual({ x: 5, y: 6, width: 1000, height: 700, maximized: true, fullScreen: false });
  });
});
