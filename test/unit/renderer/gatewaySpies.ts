import { vi, type Mock } from 'vitest';
import type { GatewayController } from '../../../renderer/controller/gatewayController';

/** The Gateway view's controller methods as spies. */
export type GatewaySpies = { [K in keyof GatewayController]: Mock<GatewayController[K]> };

export function gatewaySpies(): GatewaySpies {
  return {
    loadGateway: vi.fn<GatewayController['loadGateway']>(async () => undefined),
    startGateway: vi.fn<GatewayController['startGateway']>(async () => undefined),
    stopGateway: vi.fn<GatewayController['stopGateway']>(async () => undefined),
    selectGatewaySession: vi.fn<GatewayController['selectGatewaySession']>(async () => undefined),
    setGatewayMode: vi.fn<GatewayController['setGatewayMode']>(async () => undefined),
    gatewayControl: vi.fn<GatewayController['gatewayControl']>(async () => undefined),
    openGatewayRequest: vi.fn<GatewayController['openGatewayRequest']>(async () => undefined),
  };
}
