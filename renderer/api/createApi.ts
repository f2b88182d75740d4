import type { Envelope, StrataApi, StrataBridge } from '../../engine/contract';
import { ApiError } from './ApiError';

const unwrap = <T>(envelope: Envelope<T>): T => {
  if (envelope.ok) return envelope.value;
  throw new ApiError(envelope.error);
};

/**
 * The api views use, over any bridge: the same methods, resolving to results and rejecting with
 * `ApiError`. Method names come from the bridge itself, so a new command needs no change here.
 */
export function createApi(bridge: StrataBridge): StrataApi {
  return new Proxy({} as StrataApi, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      const method = (bridge as unknown as Record<string, unknown>)[name];
      if (typeof method !== 'function') return undefined;
      return async (...args: unknown[]) => unwrap(await (method as (...a: unknown[]) => Promise<Envelope<unknown>>)(...args));
    },
  });
}
