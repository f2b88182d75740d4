import { readStatic } from '../web/staticFiles';
import { rendererCsp } from '../shared/csp';

/** The renderer is served from this privileged custom scheme, never from file:// or the network. */
export const rendererScheme = 'app';
export const rendererOrigin = `${rendererScheme}://strata`;
export const rendererEntry = `${rendererOrigin}/index.html`;

/** True for URLs of Strata's own renderer: the only frames allowed to call the contract. */
export function isTrustedRendererUrl(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === `${rendererScheme}:` && u.host === 'strata';
  } catch {
    return false;
  }
}

/** Answer an `app://strata/...` request from the built renderer folder, with the CSP header. */
export async function serveRendererRequest(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl);
  if (url.host !== 'strata') return new Response('Not found', { status: 404 });
  const file = await readStatic(rendererDir, url.pathname);
  if (!file) return new Response('Not found', { status: 404 });
  return new Response(new Uint8Array(file.body), {
    status: 200,
    headers: { 'Content-Type': file.contentType, 'Content-Security-Policy': rendererCsp, 'X-Content-Type-Options': 'nosniff' },
  });
}
