import type { GatewayProvider } from '../../gateway/types';

/** The faults the gateway itself answers (everything else is the upstream's own answer, passed through). */
export type GatewayFault = 'forbidden' | 'too_large' | 'upstream_unreachable';

/** A reply the gateway writes itself, in the wire shape the client's provider uses for errors. */
export interface GatewayErrorReply {
  status: number;
  contentType: string;
  body: string;
}

const STATUS: Record<GatewayFault, number> = { forbidden: 403, too_large: 413, upstream_unreachable: 502 };

/** The error `type` each provider puts on such a fault, as its API does. */
const ANTHROPIC_TYPE: Record<GatewayFault, string> = {
  forbidden: 'permission_error',
  too_large: 'request_too_large',
  upstream_unreachable: 'api_error',
};
const OPENAI_TYPE: Record<GatewayFault, { type: string; code: string }> = {
  forbidden: { type: 'invalid_request_error', code: 'forbidden' },
  too_large: { type: 'invalid_request_error', code: 'request_too_large' },
  upstream_unreachable: { type: 'server_error', code: 'bad_gateway' },
};

/**
 * The provider-shaped error for a fault the gateway answers itself (`[gateway-loopback]`,
 * `[gateway-body-limit]`, `[gateway-faults]`): Anthropic's `{type: 'error', error: {type, message}}`
 * or OpenAI's `{error: {message, type, param, code}}`, so a client's own error handling reads it as
 * it would read the provider's.
 */
export function providerError(provider: GatewayProvider, fault: GatewayFault, message: string): GatewayErrorReply {
  const body =
    provider === 'anthropic'
      ? { type: 'error', error: { type: ANTHROPIC_TYPE[fault], message } }
      : { error: { message, type: OPENAI_TYPE[fault].type, param: null, code: OPENAI_TYPE[fault].code } };
  return { status: STATUS[fault], contentType: 'application/json', body: JSON.stringify(body) };
}
