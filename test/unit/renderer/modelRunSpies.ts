import { vi, type Mock } from 'vitest';
import type { ModelRunController } from '../../../renderer/controller/modelRunController';

/** The model-run form's controller methods as spies: no provider settings known, every start refused until a test says otherwise. */
export type ModelRunSpies = { [K in keyof ModelRunController]: Mock<ModelRunController[K]> };

export function modelRunSpies(): ModelRunSpies {
  return {
    loadProviderSettings: vi.fn<ModelRunController['loadProviderSettings']>(async () => ({ providers: [] })),
    startModelRun: vi.fn<ModelRunController['startModelRun']>(async () => ({ error: 'not wired in this test' })),
  };
}
