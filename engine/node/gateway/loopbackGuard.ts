/** Host names a loopback-only server answers to: what a local client puts in `Host`, with or without a port. */
const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/i;

/**
 * `[gateway-loopback]` Why a request must be refused before anything else is read, or undefined:
 * a `Host` that is not loopback (a page whose DNS name was rebound to 127.0.0.1 sends its own name)
 * and any `Origin` (only browsers send one; no coding agent does).
 */
export function loopbackRefusal(host: string | undefined, origin: string | undefined): string | undefined {
  if (origin !== undefined) return `The Strata gateway refuses browser requests (Origin: ${origin}).`;
  if (host === undefined || !LOOPBACK_HOST.test(host)) return `The Strata gateway answers only on loopback; the Host header ${JSON.stringify(host ?? '')} is not 127.0.0.1, localhost or [::1].`;
  return undefined;
}
