import { createStore } from 'zustand/vanilla';
import type { Action } from './actions';
import { initialRootState, reduce, type RootState } from './reduce';

export interface StoreState extends RootState {
  dispatch(action: Action): void;
}

/** A store per app instance (tests make their own); all changes go through `dispatch`. */
export function createStrataStore(initial: RootState = initialRootState) {
  return createStore<StoreState>()((set) => ({
    ...initial,
    dispatch: (action) =>
      set((s) => {
        const next = reduce(s, action);
        return next === s ? s : { ...next };
      }),
  }));
}

export type StrataStore = ReturnType<typeof createStrataStore>;
