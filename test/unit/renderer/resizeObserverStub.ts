/** recharts measures its container; jsdom has no ResizeObserver: a do-nothing one for chart tests. */
export function stubResizeObserver(): void {
  globalThis.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  } as unknown as typeof ResizeObserver;
}
