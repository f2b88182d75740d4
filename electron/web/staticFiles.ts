import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

export interface StaticFile {
  body: Buffer;
  contentType: string;
}

/**
 * Read the file a URL path names inside `root`, or undefined when there is none. `/` is
 * `index.html`; a path that would leave `root` (`..`, encoded or not) is refused.
 */
export async function readStatic(root: string, urlPath: string): Promise<StaticFile | undefined> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const full = normalize(join(root, relative));
  const rootWithSep = root.endsWith(sep) ? root : root + sep;
  if (!full.startsWith(rootWithSep)) return undefined;
  try {
    return { body: await readFile(full), contentType: types[extname(full)] ?? 'application/octet-stream' };
  } catch {
    return undefined;
  }
}
