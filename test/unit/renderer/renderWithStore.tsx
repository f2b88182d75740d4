import { render, type RenderResult } from '@testing-library/react';
import type { ReactElement } from 'react';
import { vi } from 'vitest';
import type { Controller } from '../../../renderer/controller/controller';
import { agentViewSpies, type AgentViewSpies } from './agentViewSpies';
import { compareMemorySpies, type CompareMemorySpies } from './compareMemorySpies';
import { gatewaySpies, type GatewaySpies } from './gatewaySpies';
import { modelRunSpies, type ModelRunSpies } from './modelRunSpies';
import { sessionsSpies, type SessionsSpies } from './sessionsSpies';
import { ControllerContext, StoreContext } from '../../../renderer/controller/StoreContext';
import type { RootState } from '../../../renderer/store/reduce';
import { createStrataStore, type StrataStore } from '../../../renderer/store/store';

export interface Rendered extends RenderResult {
  store: StrataStore;
  controller: { sync: ReturnType<typeof vi.fn<Controller['sync']>>; reconnect: ReturnType<typeof vi.fn<Controller['reconnect']>>; select: ReturnType<typeof vi.fn<Controller['select']>>; loadUsage: ReturnType<typeof vi.fn<Controller['loadUsage']>> } & AgentViewSpies & CompareMemorySpies & SessionsSpies & ModelRunSpies & GatewaySpies;
}

/** Render `ui` inside the app's providers, with a real store and a controller of spies. */
export function renderWithStore(ui: ReactElement, initial?: RootState): Rendered {
  const store = createStrataStore(initial);
  const controller = { sync: vi.fn<Controller['sync']>(async () => undefined), reconnect: vi.fn<Controller['reconnect']>(() => undefined), select: vi.fn<Controller['select']>(async () => undefined), loadUsage: vi.fn<Controller['loadUsage']>(async () => undefined), ...agentViewSpies(), ...compareMemorySpies(), ...sessionsSpies(), ...modelRunSpies(), ...gatewaySpies() };
  const result = render(
    <StoreContext.Provider value={store}>
      <ControllerContext.Provider value={controller}>{ui}</ControllerContext.Provider>
    </StoreContext.Provider>,
  );
  return { ...result, store, controller };
}

/** A rendered log line's text after its `<time>`, so assertions do not depend on the locale's clock format. */
export function logLineText(li: HTMLElement): string {
  const time = li.querySelector('time')?.textContent ?? '';
  return (li.textContent ?? '').slice(time.length).trim();
}
