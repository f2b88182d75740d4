import { createContext, useContext } from 'react';
import { useStore } from 'zustand';
import type { StoreState, StrataStore } from '../store/store';
import type { Controller } from './controller';

export const StoreContext = createContext<StrataStore | null>(null);
export const ControllerContext = createContext<Controller | null>(null);

/** Select from the app's store; pass a stable selector or wrap it in `useShallow`. */
export function useStrata<T>(selector: (s: StoreState) => T): T {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useStrata outside <StoreContext.Provider>');
  return useStore(store, selector);
}

export function useDispatch(): StoreState['dispatch'] {
  return useStrata((s) => s.dispatch);
}

export function useController(): Controller {
  const c = useContext(ControllerContext);
  if (!c) throw new Error('useController outside <ControllerContext.Provider>');
  return c;
}
