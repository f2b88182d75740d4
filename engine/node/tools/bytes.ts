/** Byte-level helpers of the tools (Node `Buffer`). */

/** Longest prefix of `text` that is at most `maxBytes` UTF-8 bytes, cut on a character boundary. */
export function clipUtf8(text: string, maxBytes: number): string {
  const buf = Buffer.from(text, 'utf8');
  if (buf.length <= maxBytes) return text;
  let end = Math.max(0, maxBytes);
  while (end > 0 && ((buf[end] as number) & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString('utf8');
}

/** Whether the start of a file looks binary (a NUL byte, as git decides). */
export function looksBinary(head: Uint8Array): boolean {
  return head.includes(0);
}

/** Bytes examined to decide binary. */
export const BINARY_SNIFF_BYTES = 8000;
