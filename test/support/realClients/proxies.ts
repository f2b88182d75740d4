import { startForwardingProxy } from './forwardingProxy';

/**
 * The proxies a real-client run can put between the client and the scripted server (SPEC
 * `[real-client-proxy-seam]`), by name, so a run's job (a JSON file read inside the network
 * namespace) can name one. Each is started inside the namespace with the scripted server as every
 * provider's upstream; the client is pointed at a recording tap in front of it. The gateway joins
 * this table once it exists.
 */

export interface ProxyUnderTest {
  /** `http://127.0.0.1:<port>`: where the tap sends what the client sent. */
  origin: string;
  close(): Promise<void>;
}

/** Every provider's upstream origin (the scripted server serves both APIs, so both are its origin). */
export interface ProxyUpstreams {
  anthropic: string;
  openai: string;
}

export type ProxyName = 'byte-forwarding';

export const PROXIES: Record<ProxyName, (upstreams: ProxyUpstreams) => Promise<ProxyUnderTest>> = {
  // The seam's own check: a proxy that changes nothing, so the upstream must see what the client sent.
  'byte-forwarding': (upstreams) => startForwardingProxy({ upstream: upstreams.anthropic }),
};
