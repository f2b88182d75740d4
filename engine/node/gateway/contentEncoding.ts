import type { Transform } from 'node:stream';
import * as zlib from 'node:zlib';
import { promisify } from 'node:util';

/**
 * `[gateway-decode]` Undoing a `content-encoding` (gzip, deflate, br, and zstd where this Node's
 * zlib has it), for the request body the handler reads and for the copy of a response the sink
 * gets. The bytes on the wire are never touched: the client and the upstream see what was sent.
 */

type Decode = (input: Buffer, options: zlib.ZlibOptions & zlib.BrotliOptions) => Promise<Buffer>;

const gunzip = promisify(zlib.gunzip) as Decode;
const inflate = promisify(zlib.inflate) as Decode;
const inflateRaw = promisify(zlib.inflateRaw) as Decode;
const brotli = promisify(zlib.brotliDecompress) as Decode;
/** zstd arrived in node:zlib after Node 20; looked up by name so this compiles and runs on both. */
const zstdSync = (zlib as unknown as Record<string, unknown>).zstdDecompress;
const zstd = typeof zstdSync === 'function' ? (promisify(zstdSync as (...a: unknown[]) => void) as Decode) : undefined;
const zstdStream = (zlib as unknown as Record<string, unknown>).createZstdDecompress as ((o?: object) => Transform) | undefined;

/** The codings of a `content-encoding` value in the order they were applied (`identity` and blanks left out). */
function codings(header: string | undefined): string[] {
  return (header ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
}

export type DecodedBody =
  | { kind: 'decoded'; body: Buffer; /** A coding was undone (false: the body was not encoded). */ changed: boolean }
  | { kind: 'too_large' }
  /** An unknown coding or bytes that do not decode: the raw body is all there is. */
  | { kind: 'undecodable'; reason: string };

/** Decodes a whole request body; the decoded size is held to `maxBytes` as the raw one is (a small bomb cannot fill memory). */
export async function decodeBody(raw: Buffer, header: string | undefined, maxBytes: number): Promise<DecodedBody> {
  const list = codings(header);
  let body = raw;
  const options = { maxOutputLength: maxBytes };
  for (const coding of [...list].reverse()) {
    try {
      if (coding === 'gzip' || coding === 'x-gzip') body = await gunzip(body, options);
      else if (coding === 'br') body = await brotli(body, options);
      else if (coding === 'zstd' && zstd) body = await zstd(body, options);
      else if (coding === 'deflate') {
        const wrapped = body;
        // Some clients send raw deflate under this name; the zlib-wrapped form is the standard one.
        body = await inflate(wrapped, options).catch((error: { code?: string }) => (error.code === 'ERR_BUFFER_TOO_LARGE' ? Promise.reject(error) : inflateRaw(wrapped, options)));
      }
      else return { kind: 'undecodable', reason: `content-encoding ${coding} is not supported` };
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return { kind: 'too_large' };
      return { kind: 'undecodable', reason: `the body does not decode as ${coding}: ${(error as Error).message}` };
    }
  }
  return { kind: 'decoded', body, changed: list.length > 0 };
}

/** A chain of streaming decoders: bytes go into `input`, decoded bytes come out of `output`. */
export interface ResponseDecoder {
  input: Transform;
  output: Transform;
}

/**
 * A streaming decoder for a response's `content-encoding`, or undefined when the body is not
 * encoded or uses a coding this Node cannot undo (the sink then gets the raw bytes, as the headers
 * it got say). It flushes on end instead of failing, so a cut stream still yields what arrived.
 */
export function responseDecoder(header: string | undefined): ResponseDecoder | undefined {
  const stages: Transform[] = [];
  for (const coding of codings(header).reverse()) {
    if (coding === 'gzip' || coding === 'x-gzip') stages.push(zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    else if (coding === 'deflate') stages.push(zlib.createInflate({ finishFlush: zlib.constants.Z_SYNC_FLUSH }));
    else if (coding === 'br') stages.push(zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }));
    else if (coding === 'zstd' && zstdStream) stages.push(zstdStream());
    else return undefined;
  }
  if (stages.length === 0) return undefined;
  for (let i = 0; i + 1 < stages.length; i++) {
    const next = stages[i + 1]!;
    stages[i]!.pipe(next);
    stages[i]!.on('error', (error) => next.destroy(error));
  }
  return { input: stages[0]!, output: stages[stages.length - 1]! };
}
