import type { ManageSettings } from '../../../engine/host/gatewayHandler';
import { startForwardingProxy } from './forwardingProxy';
import { startGatewayUnderTest, type GatewayRunRecords } from './gatewayProxy';

/**
 * The proxies a real-client run can put between the client and the scripted server (SPEC
 * `[real-client-proxy-seam]`), by name, so a run's job (a JSON file read inside the network
 * namespace) can name one. Each is started inside the namespace with the scripted server as every
 * provider's upstream; the client is pointed at a recording tap in front of it. The gateway's
 * entries also hand back what the gateway recorded (`records`).
 */

export interface ProxyUnderTest {
  /** `http://127.0.0.1:<port>`: where the tap sends what the client sent. */
  origin: string;
  close(): Promise<void>;
  /** What the proxy itself recorded over the run (the gateway's sessions, threads and calls), read before it closes. */
  records?(): GatewayRunRecords;
}

/** Every provider's upstream origin (the scripted server serves both APIs, so both are its origin). */
export interface ProxyUpstreams {
  anthropic: string;
  openai: string;
}

export type ProxyName = 'byte-forwarding' | 'gateway-observe' | 'gateway-manage';

/**
 * Manage mode's settings for the long task (`[real-client-gateway-manage]`). The models' own
 * windows (Claude Opus 5.5: 1,000,000; GPT-5: 272,000 for the prompt) put the default high
 * watermark (0.4 of the window) at 400,000 and 108,800 tokens: a task whose prompt grows to about
 * 190,000 would be left alone by the first and managed late by the second. A 200,000-token window,
 * the one most Claude models have and the gateway's default, with the default watermarks (a
 * generation ends past 80,000 tokens and the next starts at or under 50,000) makes manage mode act
 * the same way on both clients, several times over the task.
 */
const LONG_TASK_MANAGE: ManageSettings = { contextWindow: 200_000 };

export const PROXIES: Record<ProxyName, (upstreams: ProxyUpstreams) => Promise<ProxyUnderTest>> = {
  // The seam's own check: a proxy that changes nothing, so the upstream must see what the client sent.
  'byte-forwarding': (upstreams) => startForwardingProxy({ upstream: upstreams.anthropic }),
  // The Strata gateway in observe mode (`[real-client-gateway]`).
  'gateway-observe': (upstreams) => startGatewayUnderTest(upstreams, 'observe'),
  // The Strata gateway in manage mode, every session managed from its first call (`[real-client-gateway-manage]`).
  'gateway-manage': (upstreams) => startGatewayUnderTest(upstreams, 'manage', LONG_TASK_MANAGE),
};
