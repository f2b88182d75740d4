/**
 * The renderer's Content-Security-Policy, sent by the web host as a header and set by Electron's
 * protocol handler. No `unsafe-eval`, no remote origins; inline styles only (charts set them).
 * `index.html` carries the same policy as a meta tag for any other way of loading it.
 */
export const rendererCsp = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');
