import type { IncomingMessage } from 'node:http';

export type ReadBody =
  | { kind: 'read'; body: Buffer; /** ms since epoch when the last byte arrived. */ receivedAt: number }
  /** Over the limit: by its `content-length` (nothing read) or while reading (what came is dropped). */
  | { kind: 'too_large' }
  /** The client left before its body ended. */
  | { kind: 'aborted' };

/**
 * `[gateway-body-limit]` Reads a request body whole, never holding more than `maxBytes` of it: a
 * `content-length` above the limit is refused before a byte is read, and a body that grows past
 * it while arriving stops being kept.
 */
export function readRequestBody(req: IncomingMessage, maxBytes: number, now: () => number): Promise<ReadBody> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve({ kind: 'too_large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        chunks.length = 0;
        resolve({ kind: 'too_large' });
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => {
      if (size <= maxBytes) resolve({ kind: 'read', body: Buffer.concat(chunks, size), receivedAt: now() });
    });
    req.on('close', () => {
      if (!req.complete) resolve({ kind: 'aborted' });
    });
    req.on('error', () => resolve({ kind: 'aborted' }));
  });
}
